/**
 * Being memory as the dashboard reads it (mem.rpc.being.*, protobuf JSON with every field
 * emitted) and the pure shaping of it: the cluster tree and a node's importance curve.
 */

export interface ClusterSummary {
  id: string;
  name: string;
  /** "business" or "private" on the two roots; empty on sub-clusters. */
  root: string;
  /** A root's parent is itself. */
  parentId: string;
  active: number;
  dying: number;
  dead: number;
}

export interface Being {
  agent: string;
  clusters: ClusterSummary[];
  unreadNotes: number;
  pendingScenes: number;
}

export interface SceneNode {
  id: string;
  clusterId: string;
  action: string;
  actors: string[];
  when: Array<{ date: string; action: string }>;
  setting: string;
  dialogue: string[];
  sensory: string[];
  feeling: string;
  importance: number;
  themes: string[];
  status: 'active' | 'dying' | 'dead';
  fresh: boolean;
  pinned: boolean;
  sessionCount: number;
  reactivationCount: number;
  lastActivated?: string;
  text: string;
}

export interface NodeHistoryPoint {
  runId: string;
  step: 'scenes' | 'decay';
  importance: number;
  effectiveImportance: number;
  status: string;
  recordedAt: string;
}

export interface Journal {
  diary: Array<{ day: string; content: string; updatedAt: string }>;
  thinkNotes: Array<{ id: string; content: string; runId: string; createdAt: string }>;
}

export interface BeingNote {
  id: string;
  kind: string;
  content: string;
  parseFailed: boolean;
  dueAt?: string;
  readAt?: string;
  createdAt?: string;
  processedAt?: string;
}

export interface PatrolReport {
  runId: string;
  agent: string;
  resumed: boolean;
  steps: Array<{ step: string; skipped: boolean; reason: string; counts: Record<string, number> }>;
  startedAt?: string;
  finishedAt?: string;
}

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
