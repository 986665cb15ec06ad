import { Injectable } from '@nestjs/common';
import { DEATH_THRESHOLD, EFFECTIVE_IMPORTANCE_SQL } from '@engram/being';
import type { EntityManager } from '@engram/store';
import type { Planned, PatrolRun, MechanicalStep, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';

const FADED = `(NOT pinned AND ${EFFECTIVE_IMPORTANCE_SQL} <= ${DEATH_THRESHOLD})`;

/**
 * ❸ Decay: an active node whose importance · e^(−session_count/30) · (1 + reactivations)
 * is at or below 0.05 is dying; a dying node recalled (or pinned) since is active again.
 * Decay kills nothing: only consolidation (❹, a model's judgement) lets a dying node go, so
 * without a model a dying node stays dying. Pinned nodes never fade. Every node's importance
 * and status after it are recorded as the run's point in node_history.
 */
@Injectable()
export class DecayStep implements MechanicalStep<null> {
  readonly step = 'decay';

  constructor(private readonly nodes: SceneNodesRepository) {}

  async plan(): Promise<Planned<null>> {
    return { plan: null };
  }

  async apply(manager: EntityManager, run: PatrolRun): Promise<StepCounts> {
    const update = async (from: string, to: string, condition: string): Promise<number> => {
      const [, count]: [unknown, number] = await manager.query(
        `UPDATE memory_nodes SET status = '${to}', updated_at = now()
          WHERE agent = $1 AND status = '${from}' AND ${condition}`,
        [run.agent],
      );
      return count;
    };
    const recovered = await update('dying', 'active', `NOT ${FADED}`);
    const dying = await update('active', 'dying', FADED);
    if (recovered + dying > 0) await this.nodes.recomputeCentroids(manager, run.agent);
    // Each node's point of this run on its importance curve, written with the statuses it shows.
    await this.nodes.recordHistory(manager, run.tenantId, run.agent, run.runId, 'decay');
    return { dying, recovered };
  }
}
