import type { Being, ClusterSummary } from '@engram/contracts';

/** `active 12 · dying 1 · dead 3`. */
export function statusCounts(c: Pick<ClusterSummary, 'active' | 'dying' | 'dead'>): string {
  return `active ${c.active} · dying ${c.dying} · dead ${c.dead}`;
}

interface TreeLine {
  readonly depth: number;
  readonly cluster: ClusterSummary;
}

/**
 * The clusters as a tree: the roots (Business, Private) in the message's order, each
 * sub-cluster under its parent in the message's order (by id). A cluster whose parent is not
 * in the message is shown at the top, marked; a parent cycle is cut where it closes.
 */
export function clusterTreeLines(clusters: readonly ClusterSummary[]): TreeLine[] {
  const ids = new Set(clusters.map((c) => c.id));
  const isRoot = (c: ClusterSummary) => c.root !== '' || c.parentId === c.id;
  const children = new Map<string, ClusterSummary[]>();
  for (const c of clusters) {
    if (isRoot(c)) continue;
    children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
  }
  const lines: TreeLine[] = [];
  const shown = new Set<string>();
  const visit = (cluster: ClusterSummary, depth: number) => {
    if (shown.has(cluster.id)) return;
    shown.add(cluster.id);
    lines.push({ depth, cluster });
    for (const child of children.get(cluster.id) ?? []) visit(child, depth + 1);
  };
  for (const root of clusters.filter(isRoot)) visit(root, 0);
  for (const orphan of clusters.filter((c) => !isRoot(c) && !ids.has(c.parentId))) visit(orphan, 0);
  // Whatever is left sits on a parent cycle: shown at the top, once.
  for (const rest of clusters) visit(rest, 0);
  return lines;
}

/** The cluster tree with node counts by status, names padded so the counts line up. */
export function renderClusterTree(clusters: readonly ClusterSummary[]): string {
  const lines = clusterTreeLines(clusters);
  const ids = new Set(clusters.map((c) => c.id));
  const label = ({ depth, cluster }: TreeLine) => {
    const orphan = depth === 0 && cluster.root === '' && cluster.parentId !== cluster.id;
    const note = orphan
      ? ` (parent ${ids.has(cluster.parentId) ? 'cycle' : 'missing'}: ${cluster.parentId})`
      : '';
    return `${'  '.repeat(depth)}${cluster.name}${note}`;
  };
  const width = Math.max(0, ...lines.map((l) => label(l).length));
  return lines.map((l) => `${label(l).padEnd(width)}  ${statusCounts(l.cluster)}`).join('\n');
}

/** What `engram being show` prints: the clusters as a tree, then the soul and the counts. */
export function renderBeing(being: Being): string {
  const soul = being.soul;
  const soulParts = soul
    ? [
        soul.personality.trim() && 'personality',
        soul.voice.trim() && 'voice',
        soul.values.length && `${soul.values.length} value(s)`,
        soul.backstory.trim() && 'backstory',
        soul.innerWorld.trim() && 'inner world',
        soul.examples.length && `${soul.examples.length} example(s)`,
      ].filter((p): p is string => Boolean(p))
    : [];
  const enabled = being.rules.filter((r) => r.enabled).length;
  const tree = being.clusters.length ? renderClusterTree(being.clusters) : '(no clusters yet)';
  return [
    `being ${being.agent}`,
    '',
    tree,
    '',
    `soul            ${soulParts.length ? soulParts.join(', ') : 'none'}`,
    `partner rules   ${being.rules.length} (${enabled} enabled)`,
    `relationships   ${being.relationships.length}`,
    `preferences     ${being.preferences.length}`,
    `unread notes    ${being.unreadNotes}`,
    `pending scenes  ${being.pendingScenes}`,
  ].join('\n');
}
