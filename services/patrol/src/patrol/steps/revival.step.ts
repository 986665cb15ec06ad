import { Injectable } from '@nestjs/common';
import { DEATH_THRESHOLD, EFFECTIVE_IMPORTANCE_SQL } from '@engram/being';
import type { EntityManager } from '@engram/store';
import type { Planned, PatrolRun, MechanicalStep, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';

/**
 * ❺ Revival: a dead node whose effective importance is above 0.05 again — recalls raised
 * its reactivation count — is active again. Nodes absorbed into another by consolidation
 * stay dead: they live on in their survivor.
 */
@Injectable()
export class RevivalStep implements MechanicalStep<null> {
  readonly step = 'revival';

  constructor(private readonly nodes: SceneNodesRepository) {}

  async plan(): Promise<Planned<null>> {
    return { plan: null };
  }

  async apply(manager: EntityManager, run: PatrolRun): Promise<StepCounts> {
    const [, revived]: [unknown, number] = await manager.query(
      `UPDATE memory_nodes SET status = 'active', updated_at = now()
        WHERE agent = $1 AND status = 'dead' AND absorbed_into IS NULL
          AND (pinned OR ${EFFECTIVE_IMPORTANCE_SQL} > ${DEATH_THRESHOLD})`,
      [run.agent],
    );
    if (revived > 0) await this.nodes.recomputeCentroids(manager, run.agent);
    return { revived };
  }
}
