import { Injectable } from '@nestjs/common';
import { MERGE_AT_MOST, MERGE_THRESHOLD, cosine } from '@engram/being';
import type { EntityManager } from '@engram/store';
import type { Planned, PatrolRun, MechanicalStep, StepCounts } from '../patrol-step';
import { SceneNodesRepository, type ClusterTally } from '../scene-nodes.repository';

/** A cluster while merges move nodes between them. */
type Tally = Omit<ClusterTally, 'active' | 'nodes'> & { active: number; nodes: number };

/**
 * ❼ Small sub-clusters go: one with no active node hands what it still holds (dying, dead)
 * to its parent; one with 1–2 active nodes moves them all into its most similar sibling when
 * their mean vectors are more than 0.45 alike, else into its root. Emptied sub-clusters are
 * deleted unless they have children. Roots never go; sub-clusters made by this run's split
 * are left alone (a split makes groups of 2, which this would otherwise undo at once).
 */
@Injectable()
export class MergeStep implements MechanicalStep<null> {
  readonly step = 'merge';

  constructor(private readonly nodes: SceneNodesRepository) {}

  async plan(): Promise<Planned<null>> {
    return { plan: null };
  }

  async apply(manager: EntityManager, run: PatrolRun): Promise<StepCounts> {
    const clusters = new Map<string, Tally>(
      (await this.nodes.clusters(manager, run.agent)).map((c) => [c.id, { ...c }]),
    );
    const gone = new Set<string>();
    const counts = { intoSibling: 0, intoRoot: 0, emptied: 0, deleted: 0 };
    const small = [...clusters.values()].filter(
      (c) => c.root === null && c.createdAt < run.startedAt && c.active <= MERGE_AT_MOST,
    );
    for (const cluster of small) {
      const current = clusters.get(cluster.id)!;
      if (current.active > MERGE_AT_MOST) continue; // grew by a merge into it
      const parentOfOthers = [...clusters.values()].some(
        (c) => c.parentId === current.id && c.id !== current.id,
      );
      if (current.nodes === 0 && parentOfOthers) continue; // an empty parent stays for its children
      const target =
        current.active === 0
          ? clusters.get(current.parentId)!
          : (this.nearestSibling(current, clusters, gone) ?? this.rootOf(current, clusters));
      if (current.nodes > 0) await this.nodes.moveNodes(manager, current.id, target.id);
      if (current.active > 0) counts[target.root === null ? 'intoSibling' : 'intoRoot'] += 1;
      else counts.emptied += 1;
      target.active += current.active;
      target.nodes += current.nodes;
      current.active = 0;
      current.nodes = 0;
      gone.add(current.id);
    }
    counts.deleted = await this.nodes.deleteEmptyClusters(manager, [...gone]);
    if (gone.size > 0) await this.nodes.recomputeCentroids(manager, run.agent);
    return counts;
  }

  private nearestSibling(cluster: Tally, clusters: Map<string, Tally>, gone: Set<string>): Tally | null {
    if (cluster.centroid === null) return null;
    let best: { sibling: Tally; similarity: number } | null = null;
    for (const sibling of clusters.values()) {
      if (sibling.id === cluster.id || sibling.root !== null || sibling.parentId !== cluster.parentId)
        continue;
      if (
        gone.has(sibling.id) ||
        sibling.centroid === null ||
        sibling.centroidModel !== cluster.centroidModel
      )
        continue;
      const similarity = cosine(cluster.centroid, sibling.centroid);
      if (similarity > MERGE_THRESHOLD && (best === null || similarity > best.similarity))
        best = { sibling, similarity };
    }
    return best?.sibling ?? null;
  }

  private rootOf(cluster: Tally, clusters: Map<string, Tally>): Tally {
    let at = cluster;
    while (at.root === null) at = clusters.get(at.parentId)!;
    return at;
  }
}
