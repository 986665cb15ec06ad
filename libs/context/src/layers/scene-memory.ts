import { sceneToText, storedScene } from '@engram/being';
import type { BeingNoteInput, ClusterInput, SceneNodeInput, SoulInput } from '../assembly/context-inputs';

const minute = (at: Date) => `${at.toISOString().slice(0, 16)}Z`;

/** By code unit, not locale: the persona must read the same wherever it is built. */
const compare = <T extends string | bigint>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

/** The soul's fields that are set, one heading each; "" when none is. */
export function soulText(soul: SoulInput): string {
  const list = (items: readonly string[]) =>
    items
      .map((i) => i.trim())
      .filter(Boolean)
      .map((i) => `- ${i}`)
      .join('\n');
  const values = list(soul.values);
  const examples = list(soul.examples);
  return [
    soul.personality.trim() && `Personality: ${soul.personality.trim()}`,
    soul.voice.trim() && `Voice: ${soul.voice.trim()}`,
    values && `Values:\n${values}`,
    soul.backstory.trim() && `Backstory: ${soul.backstory.trim()}`,
    soul.innerWorld.trim() && `Inner world: ${soul.innerWorld.trim()}`,
    examples && `Examples of my voice:\n${examples}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The being's clusters as a small tree, a root per line with its sub-clusters after a colon
 * (theirs in brackets), each with its active nodes counted with those of its sub-clusters:
 * "Private (12): Family (4) [Kids (2)], Cooking (3)". Business before Private, sub-clusters
 * by name; clusters not under a root are left out.
 */
export function mapText(clusters: readonly ClusterInput[]): { text: string; ids: string[] } {
  const children = new Map<string, ClusterInput[]>();
  for (const c of clusters) {
    if (c.root !== null || c.parentId === c.id) continue;
    children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
  }
  for (const list of children.values())
    list.sort((a, b) => compare(a.name, b.name) || compare(BigInt(a.id), BigInt(b.id)));
  const ids: string[] = [];
  // A cluster's line and its total; `path` guards against a parent cycle.
  const visit = (c: ClusterInput, path: ReadonlySet<string>): { text: string; total: number } => {
    ids.push(`cluster:${c.id}`);
    const kids = (children.get(c.id) ?? [])
      .filter((k) => !path.has(k.id))
      .map((k) => visit(k, new Set([...path, k.id])));
    const total = c.activeNodes + kids.reduce((sum, k) => sum + k.total, 0);
    const own = `${c.name} (${total})`;
    const inner = kids.map((k) => k.text).join(', ');
    return { text: !inner ? own : c.root !== null ? `${own}: ${inner}` : `${own} [${inner}]`, total };
  };
  const roots = clusters.filter((c) => c.root !== null).sort((a, b) => compare(a.root!, b.root!));
  return { text: roots.map((r) => visit(r, new Set([r.id])).text).join('\n'), ids };
}

/** A snapshot note on one line: its kind when not a plain note, a reminder's due time. */
export function noteLine(note: BeingNoteInput): string {
  const due = note.dueAt ? ` (due ${minute(note.dueAt)})` : '';
  const label = note.kind === 'todo' ? 'TODO' : note.kind === 'reminder' ? 'Reminder' : '';
  const prefix = label || due ? `${label || 'Note'}${due}: ` : '';
  return `- ${prefix}${note.content.trim()}`;
}

/** A stored scene (whatever of it was written) as sceneToText renders it, with the node's feeling. */
export function nodeText(node: SceneNodeInput): string {
  const scene = storedScene(node.scene);
  return sceneToText(scene, node.feeling ?? scene.feeling ?? null);
}
