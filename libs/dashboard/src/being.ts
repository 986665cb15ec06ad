/**
 * Being memory as the dashboard reads it (mem.rpc.being.*, protobuf JSON with every field
 * emitted) and the pure shaping of it: the cluster tree and a node's importance curve.
 */

import type {
  BeingJson,
  BeingNoteJson,
  ClusterSummaryJson,
  DiaryEntryJson,
  JournalResponseJson,
  NodeHistoryPointJson,
  PatrolReportJson,
  PatrolStepReportJson,
  SceneNodeJson,
  ThinkNoteJson,
  WhenItemJson,
} from '@engram/contracts';
import type { Emitted, With } from './wire';

export type ClusterSummary = Emitted<ClusterSummaryJson>;

export type Being = With<Emitted<BeingJson, 'soul'>, { clusters: ClusterSummary[] }>;

/** A scene node; `status` is "active", "dying" or "dead". */
export type SceneNode = With<
  Emitted<SceneNodeJson, 'emotion' | 'lastActivated'>,
  { when: Array<Emitted<WhenItemJson>> }
>;

/** A point of a node's importance curve; `step` is "scenes" (the run that made it) or "decay". */
export type NodeHistoryPoint = Emitted<NodeHistoryPointJson, 'recordedAt'>;

export type Journal = With<
  Emitted<JournalResponseJson>,
  {
    diary: Array<Emitted<DiaryEntryJson, 'updatedAt'>>;
    thinkNotes: Array<Emitted<ThinkNoteJson, 'createdAt'>>;
  }
>;

export type BeingNote = Emitted<BeingNoteJson, 'dueAt' | 'readAt' | 'createdAt' | 'processedAt'>;

export type PatrolReport = With<
  Emitted<PatrolReportJson, 'startedAt' | 'finishedAt'>,
  { steps: Array<Emitted<PatrolStepReportJson>> }
>;

/** A cluster with its sub-clusters, and the node counts of it and everything below it. */
export interface ClusterBranch {
  readonly cluster: ClusterSummary;
  readonly children: ClusterBranch[];
  readonly total: { active: number; dying: number; dead: number };
}

/**
 * The clusters as a tree: the roots (Business before Private), each sub-cluster under its
 * parent in id order. A cluster whose parent is missing is shown as a root rather than lost.
 */
export function clusterForest(clusters: readonly ClusterSummary[]): ClusterBranch[] {
  const ids = new Set(clusters.map((c) => c.id));
  const isRoot = (c: ClusterSummary) => c.parentId === c.id || !ids.has(c.parentId);
  const byId = (a: ClusterSummary, b: ClusterSummary) => Number(a.id) - Number(b.id);
  const rootRank = (c: ClusterSummary) => (c.root === 'business' ? 0 : c.root === 'private' ? 1 : 2);
  const build = (cluster: ClusterSummary, seen: Set<string>): ClusterBranch => {
    const children = clusters
      .filter((c) => c.parentId === cluster.id && c.id !== cluster.id && !seen.has(c.id))
      .sort(byId)
      .map((c) => build(c, new Set([...seen, c.id])));
    const total = children.reduce(
      (sum, child) => ({
        active: sum.active + child.total.active,
        dying: sum.dying + child.total.dying,
        dead: sum.dead + child.total.dead,
      }),
      { active: cluster.active, dying: cluster.dying, dead: cluster.dead },
    );
    return { cluster, children, total };
  };
  return clusters
    .filter(isRoot)
    .sort((a, b) => rootRank(a) - rootRank(b) || byId(a, b))
    .map((c) => build(c, new Set([c.id])));
}

/** "3 active, 1 dying, 0 dead". */
export function statusCounts(counts: { active: number; dying: number; dead: number }): string {
  return `${counts.active} active, ${counts.dying} dying, ${counts.dead} dead`;
}

/**
 * A node's importance curve as chart rows: one per recorded point, labelled by its patrol run
 * ("run 7", "run 7 (made)" for the point of the run that made the node), values rounded to
 * three places.
 */
export function importanceCurve(
  points: readonly NodeHistoryPoint[],
): Array<{ run: string; effective: number; importance: number; status: string }> {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return points.map((p) => ({
    run: p.step === 'scenes' ? `run ${p.runId} (made)` : `run ${p.runId}`,
    effective: round(p.effectiveImportance),
    importance: round(p.importance),
    status: p.status,
  }));
}
