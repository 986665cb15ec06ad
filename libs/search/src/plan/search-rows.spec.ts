import { temporalScore } from '../ranking/signals';
import { toCandidate, type CandidateRow } from './search-rows';

const row = (lastAccess: string | null, accesses: number | null): CandidateRow => ({
  kind: 'message',
  id: '7',
  conversation_id: '1',
  role: 'user',
  author: null,
  created_at: new Date('2026-03-01T10:00:00Z'),
  length: 12,
  matched: 1,
  cosine: null,
  asks: false,
  importance: null,
  access_count: accesses,
  last_accessed_at: lastAccess === null ? null : new Date(lastAccess),
  lexical_score: null,
  eligible: true,
});

describe('toCandidate', () => {
  it('keeps the access statistics of a search asked now, or as of a moment after the last access', () => {
    expect(toCandidate(row('2026-03-05T00:00:00Z', 4))).toMatchObject({
      lastAccessedAt: new Date('2026-03-05T00:00:00Z'),
      accessCount: 4,
    });
    expect(toCandidate(row('2026-03-05T00:00:00Z', 4), new Date('2026-03-05T00:00:00Z'))).toMatchObject({
      lastAccessedAt: new Date('2026-03-05T00:00:00Z'),
      accessCount: 4,
    });
    expect(toCandidate(row(null, null), new Date('2026-03-02T00:00:00Z'))).toMatchObject({
      lastAccessedAt: null,
      accessCount: 0,
    });
  });

  it('as of a moment before the last access, counts the item as never accessed: recency from its own time', () => {
    const asOf = new Date('2026-03-04T10:00:00Z');
    const candidate = toCandidate(row('2026-03-20T00:00:00Z', 9), asOf);
    expect(candidate).toMatchObject({ lastAccessedAt: null, accessCount: 0 });
    // Three days after it was said, whatever happened to it later.
    expect(
      temporalScore(candidate.createdAt, candidate.lastAccessedAt, candidate.accessCount, asOf),
    ).toBeCloseTo(Math.exp(-0.05 * 3), 10);
  });
});
