import { Injectable } from '@nestjs/common';
import { mergedWhen, survivorImportance } from '@engram/being';
import { checkConsolidation, SCENE_TASK_LIMITS, type TaskRequest } from '@engram/prompts';
import { TenantTransactions, type EntityManager } from '@engram/store';
import { BeingVoiceRepository } from '../being-voice.repository';
import { sceneLine } from '../model-answers';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { ModelRun, ModelStep, Planned, PatrolRun, StepCounts } from '../patrol-step';
import { SceneNodesRepository, type PatrolNode } from '../scene-nodes.repository';

interface ClusterPlan {
  readonly clusterId: string;
  /** Every node the model was shown: their fresh flags are reset. */
  readonly shown: string[];
  readonly merges: Array<{ survivorId: string; absorbedIds: string[] }>;
  readonly makeDead: string[];
}

interface ConsolidationPlan {
  readonly clusters: ClusterPlan[];
  readonly nodes: Map<string, PatrolNode>;
  readonly refused: number;
}

/**
 * ❹ Consolidation, per cluster holding fresh or dying nodes: the language model merges
 * scenes that tell the same moment (the survivor gains 0.05 importance, at most 1, and keeps
 * the absorbed scenes' dates with their actions in its `when`; the absorbed are dead) and
 * names scenes to let go (dead); every node it was shown is no longer fresh. An answer that
 * does not parse or names a node it was not shown is refused whole: that cluster is left as it was.
 */
@Injectable()
export class ConsolidationStep implements ModelStep<ConsolidationPlan> {
  readonly step = 'consolidation';
  readonly needsModel = true;

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
    private readonly voices: BeingVoiceRepository,
  ) {}

  async plan(run: ModelRun): Promise<Planned<ConsolidationPlan>> {
    const { clusters, nodes, voice } = await this.transactions.run(run.tenantId, async (m) => ({
      clusters: await this.nodes.clusters(m, run.agent),
      nodes: await this.nodes.nodes(
        m,
        run.agent,
        `status <> 'dead' AND cluster_id IN (SELECT cluster_id FROM memory_nodes
           WHERE agent = $1 AND (fresh AND status = 'active' OR status = 'dying'))`,
      ),
      voice: await this.voices.voiceOf(m, run.agent),
    }));
    if (nodes.length === 0) return { skip: 'no fresh or dying scenes' };
    const plans: ClusterPlan[] = [];
    let refused = 0;
    for (const cluster of clusters) {
      const shown = nodes
        .filter((n) => n.clusterId === cluster.id)
        .slice(0, SCENE_TASK_LIMITS.consolidateNodes);
      if (shown.length === 0) continue;
      const input: TaskRequest<'consolidate_scenes'> = {
        being: {
          ...(voice.name && { name: voice.name }),
          ...(voice.personality && { personality: voice.personality }),
        },
        cluster: { name: cluster.name },
        nodes: shown.map((n) => ({
          id: n.id,
          scene: sceneLine(n),
          importance: n.importance,
          status: n.status as 'active' | 'dying',
          fresh: n.fresh,
          pinned: n.pinned,
        })),
      };
      const checked = await this.gateway.checkedAnswer('consolidate_scenes', input, run, (output) => {
        const answer = checkConsolidation(input, output);
        return answer.ok ? answer.plan : null;
      });
      if (checked) plans.push({ clusterId: cluster.id, shown: shown.map((n) => n.id), ...checked });
      else refused += 1;
    }
    return { plan: { clusters: plans, nodes: new Map(nodes.map((n) => [n.id, n])), refused } };
  }

  async apply(manager: EntityManager, run: PatrolRun, plan: ConsolidationPlan): Promise<StepCounts> {
    let merged = 0;
    let absorbed = 0;
    let madeDead = 0;
    for (const cluster of plan.clusters) {
      for (const merge of cluster.merges) {
        const survivor = plan.nodes.get(merge.survivorId)!;
        const gone = merge.absorbedIds.map((id) => plan.nodes.get(id)!);
        const scene = {
          ...survivor.scene,
          when: mergedWhen(
            survivor.scene,
            gone.map((n) => ({ scene: n.scene, madeOn: n.madeOn })),
          ),
        };
        await manager.query(
          `UPDATE memory_nodes SET scene = $2::jsonb, importance = $3, status = 'active', updated_at = now() WHERE id = $1`,
          [survivor.id, JSON.stringify(scene), survivorImportance(survivor.importance)],
        );
        await this.nodes.makeDead(manager, merge.absorbedIds, survivor.id);
        merged += 1;
        absorbed += merge.absorbedIds.length;
      }
      await this.nodes.makeDead(manager, cluster.makeDead, null);
      madeDead += cluster.makeDead.length;
      await manager.query(`UPDATE memory_nodes SET fresh = false WHERE id = ANY($1::bigint[])`, [
        cluster.shown,
      ]);
    }
    if (merged + madeDead > 0) await this.nodes.recomputeCentroids(manager, run.agent);
    return { clusters: plan.clusters.length, merged, absorbed, dead: madeDead, refused: plan.refused };
  }
}
