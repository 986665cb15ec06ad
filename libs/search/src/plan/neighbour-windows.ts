import type { Candidate } from '../ranking/candidate';
import { toCandidate, type NeighbourRow } from './search-rows';

type Slots = [string | null, string | null, string | null, string | null];

/** Where a window's neighbours of the turn at `at` stand: two and one before, one and two after. */
const AROUND = [-2, -1, 1, 2] as const;

/**
 * The first candidates, with the neighbours read around each seed added as candidates and
 * everyone's surroundings attached: a seed's window (two turns each side) also tells each
 * of its neighbours who stands next to it, so an answer found only as the turn after a
 * matching question still scores with that question beside it. `first` holds each item once.
 */
export function withNeighbours(first: Candidate[], seeds: string[], around: NeighbourRow[]): Candidate[] {
  const messages = new Set(first.flatMap((c) => (c.kind === 'message' ? [c.id] : [])));
  const added: Candidate[] = [];
  const windows = new Map<string, Array<string | null>>(seeds.map((s) => [s, [null, null, s, null, null]]));
  for (const row of around) {
    const id = String(row.id);
    windows.get(String(row.seed))![row.offset + 2] = id;
    if (messages.has(id)) continue;
    messages.add(id);
    added.push(toCandidate(row));
  }
  const slots = new Map<string, Slots>();
  for (const window of windows.values()) {
    window.forEach((id, at) => {
      if (id === null) return;
      let known = slots.get(id);
      if (!known) slots.set(id, (known = [null, null, null, null]));
      // What an earlier window said stays (the first window naming a neighbour decides it).
      AROUND.forEach((offset, i) => (known[i] ??= window[at + offset] ?? null));
    });
  }
  return [...first, ...added].map((c) =>
    c.kind === 'message' && slots.has(c.id) ? { ...c, neighbours: slots.get(c.id)! } : c,
  );
}
