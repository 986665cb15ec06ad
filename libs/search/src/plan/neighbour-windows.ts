import type { Candidate } from '../ranking/candidate';
import { toCandidate, type NeighbourRow } from './search-rows';

type Slots = [string | null, string | null, string | null, string | null];

/** Where a window's neighbours of the turn at `at` stand: two and one before, one and two after. */
const AROUND = [-2, -1, 1, 2] as const;

/**
 * The first candidates, with the neighbours read around each seed added as candidates and
 * everyone's surroundings attached: a seed's window (two turns each side) also tells each
 * of its neighbours who stands next to it, so an answer found only as the turn after a
 * matching question still scores with that question beside it. `first` holds each item once;
 * `asOf` is the search's (toCandidate).
 */
export function withNeighbours(
  first: Candidate[],
  seeds: string[],
  around: NeighbourRow[],
  asOf?: Date,
): Candidate[] {
  // Only the few neighbours are looked up among the first candidates (a set of all of them cost more).
  const neighbourIds = new Set(around.map((row) => String(row.id)));
  const known = new Set<string>();
  for (const c of first) if (c.kind === 'message' && neighbourIds.has(c.id)) known.add(c.id);
  const added: Candidate[] = [];
  const windows = new Map<string, Array<string | null>>(seeds.map((s) => [s, [null, null, s, null, null]]));
  for (const row of around) {
    const id = String(row.id);
    windows.get(String(row.seed))![row.offset + 2] = id;
    if (known.has(id)) continue;
    known.add(id);
    added.push(toCandidate(row, asOf));
  }
  const slots = new Map<string, Slots>();
  for (const window of windows.values()) {
    window.forEach((id, at) => {
      if (id === null) return;
      let sides = slots.get(id);
      if (!sides) slots.set(id, (sides = [null, null, null, null]));
      // What an earlier window said stays (the first window naming a neighbour decides it).
      AROUND.forEach((offset, i) => (sides[i] ??= window[at + offset] ?? null));
    });
  }
  const withSides = (c: Candidate): Candidate => {
    const sides = c.kind === 'message' ? slots.get(c.id) : undefined;
    return sides ? { ...c, neighbours: sides } : c;
  };
  const all = first.map(withSides);
  for (const c of added) all.push(withSides(c));
  return all;
}
