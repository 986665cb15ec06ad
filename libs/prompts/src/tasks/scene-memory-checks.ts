import type { Scene } from '@engram/being';
import { SCENE_TASK_LIMITS, type ClusterSplit, type SceneConsolidation } from './task-inputs';

/**
 * A model's answer to a scene-memory task, held to what it was given. The patrol applies an
 * answer whole or not at all: one unknown id or broken rule refuses it all, with the reason,
 * because a half-applied merge or split leaves memory in a state nobody asked for.
 */
export type Checked<K extends string, T> =
  ({ readonly ok: true } & Readonly<Record<K, T>>) | { readonly ok: false; readonly reason: string };

/** What checkConsolidation needs of the nodes it was asked about. */
export interface ConsolidatedNode {
  readonly id: string;
  readonly pinned: boolean;
}

/** The first id of `ids` seen before (in it, or in `seen`), after adding them all to `seen`. */
function firstRepeat(ids: readonly string[], seen: Set<string>): string | undefined {
  let repeat: string | undefined;
  for (const id of ids) {
    if (seen.has(id)) repeat ??= id;
    seen.add(id);
  }
  return repeat;
}

/** The reason an id list repeats one of its own ids, if it does. */
function repeatWithin(ids: readonly string[], list: string): string | undefined {
  const repeat = firstRepeat(ids, new Set());
  return repeat === undefined ? undefined : `${list} names node ${repeat} twice`;
}

/** The first of `ids` that is not a given node's. */
function firstUnknown(ids: readonly string[], known: ReadonlySet<string>): string | undefined {
  return ids.find((id) => !known.has(id));
}

/**
 * A consolidation naming only given nodes, where each merge absorbs something, no node
 * survives and is absorbed, is in two merges, or is both merged and made dead, no pinned node
 * is absorbed or made dead, and no list names a node twice.
 */
export function checkConsolidation(
  input: { readonly nodes: readonly ConsolidatedNode[] },
  output: SceneConsolidation,
): Checked<'plan', SceneConsolidation> {
  const known = new Set(input.nodes.map((n) => n.id));
  const pinned = new Set(input.nodes.filter((n) => n.pinned).map((n) => n.id));
  const survivors = output.merges.map((m) => m.survivorId);
  const absorbed = output.merges.flatMap((m) => m.absorbedIds);
  const refuse = (reason: string) => ({ ok: false as const, reason });

  const unknown = firstUnknown([...survivors, ...absorbed, ...output.makeDead], known);
  if (unknown !== undefined) return refuse(`names unknown node ${unknown}`);
  for (const merge of output.merges) {
    if (merge.absorbedIds.length === 0) return refuse(`merge into ${merge.survivorId} absorbs nothing`);
    const repeat = repeatWithin(merge.absorbedIds, `merge into ${merge.survivorId}`);
    if (repeat) return refuse(repeat);
  }
  const deadRepeat = repeatWithin(output.makeDead, 'makeDead');
  if (deadRepeat) return refuse(deadRepeat);
  const absorbedSet = new Set(absorbed);
  const absorbedSurvivor = survivors.find((id) => absorbedSet.has(id));
  if (absorbedSurvivor !== undefined) return refuse(`node ${absorbedSurvivor} both survives and is absorbed`);
  const twice = firstRepeat(
    output.merges.flatMap((m) => [m.survivorId, ...m.absorbedIds]),
    new Set(),
  );
  if (twice !== undefined) return refuse(`node ${twice} is in two merges`);
  const merged = new Set([...survivors, ...absorbed]);
  const mergedAndDead = output.makeDead.find((id) => merged.has(id));
  if (mergedAndDead !== undefined) return refuse(`node ${mergedAndDead} is both merged and made dead`);
  const pinnedAbsorbed = absorbed.find((id) => pinned.has(id));
  if (pinnedAbsorbed !== undefined) return refuse(`absorbs pinned node ${pinnedAbsorbed}`);
  const pinnedDead = output.makeDead.find((id) => pinned.has(id));
  if (pinnedDead !== undefined) return refuse(`makes pinned node ${pinnedDead} dead`);
  return { ok: true, plan: { merges: output.merges, makeDead: output.makeDead } };
}

/**
 * A split into at least one group, each of at least 2 given nodes under a name (trimmed,
 * distinct whatever the case), no node in two groups, and at least 2 nodes left in the cluster.
 * The plan's names are trimmed.
 */
export function checkSplit(
  input: { readonly nodes: ReadonlyArray<{ readonly id: string }> },
  output: ClusterSplit,
): Checked<'plan', ClusterSplit> {
  const known = new Set(input.nodes.map((n) => n.id));
  const refuse = (reason: string) => ({ ok: false as const, reason });
  if (output.groups.length === 0) return refuse('no groups');

  const groups = output.groups.map((g) => ({ name: g.name.trim(), nodeIds: g.nodeIds }));
  const names = new Set<string>();
  const grouped = new Set<string>();
  for (const [i, group] of groups.entries()) {
    if (!group.name) return refuse(`group ${i + 1} has no name`);
    const unknown = firstUnknown(group.nodeIds, known);
    if (unknown !== undefined) return refuse(`names unknown node ${unknown}`);
    const label = `group ${JSON.stringify(group.name)}`;
    const repeat = repeatWithin(group.nodeIds, label);
    if (repeat) return refuse(repeat);
    const key = group.name.toLowerCase();
    if (names.has(key)) return refuse(`two groups are named ${JSON.stringify(group.name)}`);
    names.add(key);
    const twice = firstRepeat(group.nodeIds, grouped);
    if (twice !== undefined) return refuse(`node ${twice} is in two groups`);
    const size = group.nodeIds.length;
    if (size < 2) return refuse(`${label} has ${size} scene${size === 1 ? '' : 's'}; at least 2`);
  }
  const left = known.size - grouped.size;
  if (left < 2) return refuse(`leaves ${left} scene${left === 1 ? '' : 's'} in the cluster; at least 2`);
  return { ok: true, plan: { groups } };
}

/**
 * A diary entry of 3–5 non-empty lines, trimmed and joined by "\n", short enough to be the
 * next day's `previous` (SCENE_TASK_LIMITS.diaryChars).
 */
export function checkDiary(answer: string): Checked<'text', string> {
  const { min, max } = SCENE_TASK_LIMITS.diaryLines;
  const lines = answer
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < min || lines.length > max)
    return { ok: false, reason: `has ${lines.length} lines; ${min} to ${max} wanted` };
  const text = lines.join('\n');
  if (text.length > SCENE_TASK_LIMITS.diaryChars)
    return { ok: false, reason: `is ${text.length} characters; at most ${SCENE_TASK_LIMITS.diaryChars}` };
  return { ok: true, text };
}

/** 3–7 notes, each trimmed, non-empty and at most SCENE_TASK_LIMITS.noteChars long; blank ones do not count. */
export function checkThinkNotes(output: { readonly notes: readonly string[] }): Checked<'notes', string[]> {
  const { min, max } = SCENE_TASK_LIMITS.notes;
  const notes = output.notes.map((note) => note.trim()).filter(Boolean);
  if (notes.length < min || notes.length > max)
    return { ok: false, reason: `has ${notes.length} notes; ${min} to ${max} wanted` };
  const long = notes.findIndex((note) => note.length > SCENE_TASK_LIMITS.noteChars);
  if (long >= 0)
    return {
      ok: false,
      reason: `note ${long + 1} is ${notes[long]!.length} characters; at most ${SCENE_TASK_LIMITS.noteChars}`,
    };
  return { ok: true, notes };
}

/**
 * A repaired scene as the store keeps it: the "" that stands for a setting or feeling the note
 * does not give is left out, so the scene reads like one the being wrote without them.
 */
export function repairedScene(output: Scene): Scene {
  const { setting, feeling, ...rest } = output;
  return { ...rest, ...(setting && { setting }), ...(feeling && { feeling }) };
}
