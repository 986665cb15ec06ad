/** A recalled scene must be at least this similar to the message. */
export const RECALL_THRESHOLD = 0.35;
/** At most this many scenes come back per message. */
export const RECALL_LIMIT = 3;

/** Fisher–Yates: a uniformly random order of `items` (a new array), by `random` in [0, 1). */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * What recall hands the being: the actions and feelings of the recalled scenes, in a random
 * order (memories come back unsorted), joined with " / " inside a memory tag; "" for none.
 * An XML-like tag, not Engram's [MEMORY:…] tag, which ingest would take for an order to save.
 */
export function memoryTag(
  scenes: ReadonlyArray<{ readonly action: string; readonly feeling: string | null }>,
  random: () => number = Math.random,
): string {
  const parts = scenes.flatMap((s) => (s.feeling ? [s.action, s.feeling] : [s.action]));
  if (parts.length === 0) return '';
  return `<memory>${shuffle(parts, random).join(' / ')}</memory>`;
}
