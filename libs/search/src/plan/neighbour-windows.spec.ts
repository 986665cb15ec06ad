import type { Candidate } from '../ranking/candidate';
import { withNeighbours } from './neighbour-windows';
import type { NeighbourRow } from './search-rows';

const at = new Date('2026-06-01T10:00:00Z');
const candidate = (id: string): Candidate => ({
  kind: 'message',
  id,
  role: 'user',
  conversationId: '1',
  author: 'Ada',
  createdAt: at,
  lastAccessedAt: null,
  accessCount: 0,
  length: 10,
  matched: 1,
  cosine: 0.5,
  asks: false,
  importance: null,
  eligible: true,
});
const row = (seed: string, offset: number, id: string): NeighbourRow => ({
  seed,
  offset,
  kind: 'message',
  id,
  conversation_id: '1',
  role: 'assistant',
  author: 'Engram',
  created_at: at,
  length: 10,
  matched: 0,
  cosine: 0.1,
  asks: false,
  importance: null,
  access_count: null,
  last_accessed_at: null,
  lexical_score: null,
  eligible: true,
});

describe('withNeighbours', () => {
  // A conversation 1 2 3 4 5 6 7; message 4 matched the query and was read with two turns each side.
  const around = [row('4', -2, '2'), row('4', -1, '3'), row('4', 1, '5'), row('4', 2, '6')];

  it('gives a seed its two turns on each side and adds them as candidates', () => {
    const out = withNeighbours([candidate('4')], ['4'], around);
    expect(out.map((c) => c.id).sort()).toEqual(['2', '3', '4', '5', '6']);
    expect(out.find((c) => c.id === '4')!.neighbours).toEqual(['2', '3', '5', '6']);
  });

  it("tells each neighbour who stands beside it, as far as the seed's window reaches", () => {
    const out = withNeighbours([candidate('4')], ['4'], around);
    // The answer right after the matching turn knows the question before it.
    expect(out.find((c) => c.id === '5')!.neighbours).toEqual(['3', '4', '6', null]);
    expect(out.find((c) => c.id === '2')!.neighbours).toEqual([null, null, '3', '4']);
  });

  it('merges what overlapping windows know, and leaves other kinds alone', () => {
    const summary: Candidate = { ...candidate('9'), kind: 'summary' };
    const out = withNeighbours(
      [candidate('4'), candidate('6'), summary],
      ['4', '6'],
      [...around, row('6', -2, '4'), row('6', -1, '5'), row('6', 1, '7')],
    );
    expect(out.find((c) => c.id === '5')!.neighbours).toEqual(['3', '4', '6', '7']);
    expect(out.find((c) => c.id === '6')!.neighbours).toEqual(['4', '5', '7', null]);
    expect(out.find((c) => c.kind === 'summary')!.neighbours).toBeUndefined();
  });
});
