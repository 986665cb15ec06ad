import { candidateKey, type Candidate } from '../ranking/candidate';
import { toCandidate, type NeighbourRow } from './search-rows';

type Slots = [string | null, string | null, string | null, string | null];

/**
 * The first candidates, with the neighbours read around each seed added as candidates and
 * everyone's surroundings attached: a seed's window (two turns each side) also tells each
 * of its neighbours who stands next to it, so an answer found only as the turn after a
 * matching question still scores with that question beside it.
 */
export function withNeighbours(first: Candidate[], seeds: string[], around: NeighbourRow[]): Candidate[] {
  const byKey = new Map(first.map((c) => [candidateKey(c.kind, c.id), c]));
  const windows = new Map<string, Array<string | null>>(seeds.map((s) => [s, [null, null, s, null, null]]));
  for (const row of around) {
    const neighbour = toCandidate(row);
    windows.get(String(row.seed))![row.offset + 2] = neighbour.id;
    const key = candidateKey('message', neighbour.id);
    if (!byKey.has(key)) byKey.set(key, neighbour);
  }
  const slots = new Map<string, Slots>();
  for (const window of windows.values()) {
    window.forEach((id, at) => {
      if (id === null) return;
      const known = slots.get(id) ?? [null, null, null, null];
      const seen = [
        window[at - 2] ?? null,
        window[at - 1] ?? null,
        window[at + 1] ?? null,
        window[at + 2] ?? null,
      ];
      slots.set(id, known.map((k, i) => k ?? seen[i]!) as Slots);
    });
  }
  return [...byKey.values()].map((c) =>
    c.kind === 'message' && slots.has(c.id) ? { ...c, neighbours: slots.get(c.id)! } : c,
  );
}
