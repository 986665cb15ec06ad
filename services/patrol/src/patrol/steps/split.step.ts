import { Injectable } from '@nestjs/common';
import { SPLIT_ABOVE } from '@engram/being';
import { checkSplit, SCENE_TASK_LIMITS, type TaskRequest } from '@engram/prompts';
import { TenantTransactions, type EntityManager } from '@engram/store';
import { sceneLine } from '../model-answers';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { ModelRun, ModelStep, Planned, PatrolRun, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';

interface SplitPlan {
  readonly splits: Array<{ clusterId: string; groups: Array<{ name: string; nodeIds: string[] }> }>;
  readonly refused: number;
}

/**
 * ❻ Split: a cluster with more than 10 active nodes is divided by the language model into
 * named groups of at least 2 that become its sub-clusters, leaving at least 2 in it. A root
 * stays a root (never split into two roots): its groups become its children. An answer that
 * does not parse, names a node it was not shown, or breaks those bounds is refused whole.
 */
@Injectable()
export class SplitStep implements ModelStep<SplitPlan> {
  readonly step = 'split';
  readonly needsModel = true;

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
  ) {}

  async plan(run: ModelRun): Promise<Planned<SplitPlan>> {
    const { clusters, nodes } = await this.transactions.run(run.tenantId, async (m) => {
      const crowded = (await this.nodes.clusters(m, run.agent)).filter((c) => c.active > SPLIT_ABOVE);
      return {
        clusters: crowded,
        nodes: crowded.length
          ? await this.nodes.nodes(m, run.agent, `status = 'active' AND cluster_id = ANY($2::bigint[])`, [
              crowded.map((c) => c.id),
            ])
          : [],
      };
    });
    if (clusters.length === 0) return { skip: `no cluster has more than ${SPLIT_ABOVE} active scenes` };
    const splits: SplitPlan['splits'] = [];
    let refused = 0;
    for (const cluster of clusters) {
      const input: TaskRequest<'split_cluster'> = {
        cluster: { name: cluster.name },
        nodes: nodes
          .filter((n) => n.clusterId === cluster.id)
          .slice(0, SCENE_TASK_LIMITS.splitNodes)
          .map((n) => ({ id: n.id, scene: sceneLine(n) })),
      };
      const groups = await this.gateway.checkedAnswer('split_cluster', input, run, (output) => {
        const answer = checkSplit(input, output);
        return answer.ok ? answer.plan.groups : null;
      });
      if (groups) splits.push({ clusterId: cluster.id, groups });
      else refused += 1;
    }
    return { plan: { splits, refused } };
  }

  async apply(manager: EntityManager, run: PatrolRun, plan: SplitPlan): Promise<StepCounts> {
    let created = 0;
    let moved = 0;
    for (const split of plan.splits) {
      for (const group of split.groups) {
        const [child]: Array<{ id: string }> = await manager.query(
          `INSERT INTO clusters (tenant_id, agent, name, parent_id) VALUES ($1, $2, $3, $4) RETURNING id::text`,
          [run.tenantId, run.agent, group.name, split.clusterId],
        );
        const [, count]: [unknown, number] = await manager.query(
          `UPDATE memory_nodes SET cluster_id = $1, updated_at = now() WHERE id = ANY($2::bigint[]) AND cluster_id = $3`,
          [child!.id, group.nodeIds, split.clusterId],
        );
        created += 1;
        moved += count;
      }
    }
    if (created > 0) await this.nodes.recomputeCentroids(manager, run.agent);
    return { split: plan.splits.length, clusters: created, moved, refused: plan.refused };
  }
}
