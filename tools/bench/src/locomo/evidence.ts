/**
 * A question's evidence as turn ids, despite the release's defects: several ids in one
 * entry ("D8:6; D9:17", "D9:1 D4:4"), leading zeros ("D30:05" = D30:5), malformed ids
 * ("D", "D:11:26") and ids of turns that do not exist.
 */

const DIA_ID = /^D(\d+):(\d+)$/i;

/** "D30:05" → "D30:5"; null when the text is not a dia_id at all ("D", "D:11:26"). */
export function normaliseDiaId(raw: string): string | null {
  const match = DIA_ID.exec(raw.trim());
  return match ? `D${Number(match[1])}:${Number(match[2])}` : null;
}

/** A stored turn id as LoCoMo's evidence spells it: its normalised dia_id, or itself when it is none. */
export function diaIdKey(turnId: string): string {
  return normaliseDiaId(turnId) ?? turnId;
}

export interface QuestionEvidence {
  /** Distinct turn ids that resolve to a turn of the conversation, in the order given. */
  readonly turns: readonly string[];
  /** The pieces that did not resolve, as written. */
  readonly unresolved: readonly string[];
}

/**
 * Splits every entry on ";" and whitespace, normalises each id, and keeps the ids that
 * `known` holds (the turns ingested for that conversation, normalised the same way).
 */
export function resolveEvidence(entries: readonly string[], known: ReadonlySet<string>): QuestionEvidence {
  const turns: string[] = [];
  const unresolved: string[] = [];
  for (const entry of entries) {
    for (const piece of entry.split(/[;\s]+/)) {
      if (!piece) continue;
      const id = normaliseDiaId(piece);
      if (id === null || !known.has(id)) unresolved.push(piece);
      else if (!turns.includes(id)) turns.push(id);
    }
  }
  return { turns, unresolved };
}
