import { planExtractedFact, SAME_FACT_SIMILARITY, SUPERSEDED_SIMILARITY } from './extracted-fact-plan';

const at = new Date('2026-02-22T10:00:00Z');
const fact = { category: 'fact' as const, statedAt: at };
const correction = { category: 'correction' as const, statedAt: at };
const preference = { category: 'preference' as const, statedAt: at };

describe('planExtractedFact', () => {
  it('inserts when the agent has no fact yet', () => {
    expect(planExtractedFact(fact, null)).toEqual({ kind: 'insert' });
  });

  it('updates in place at 0.90 and above', () => {
    expect(planExtractedFact(fact, { id: '7', similarity: SAME_FACT_SIMILARITY })).toEqual({
      kind: 'update',
      factId: '7',
    });
    expect(planExtractedFact(correction, { id: '7', similarity: 0.99 })).toEqual({
      kind: 'update',
      factId: '7',
    });
  });

  it('inserts a merely similar fact beside the older one', () => {
    expect(planExtractedFact(preference, { id: '7', similarity: 0.89 })).toEqual({ kind: 'insert' });
  });

  it('takes the same-fact threshold it is configured with (FACT_SAME_SIMILARITY)', () => {
    const nearest = { id: '7', similarity: 0.86 };
    expect(planExtractedFact(preference, nearest, null, 0.85)).toEqual({ kind: 'update', factId: '7' });
    expect(planExtractedFact(preference, { ...nearest, similarity: 0.94 }, null, 0.95)).toEqual({
      kind: 'insert',
    });
    const closed = { id: '5', similarity: 0.86, validTo: new Date('2026-02-22T11:00:00Z') };
    expect(planExtractedFact(fact, null, closed, 0.85)).toEqual({ kind: 'skip', factId: '5' });
  });

  it('lets a correction close to an older fact supersede it', () => {
    expect(planExtractedFact(correction, { id: '7', similarity: SUPERSEDED_SIMILARITY })).toEqual({
      kind: 'supersede',
      factId: '7',
    });
  });

  it('inserts a correction about something else', () => {
    expect(planExtractedFact(correction, { id: '7', similarity: 0.5 })).toEqual({ kind: 'insert' });
  });

  it('leaves out a repeat of a closed fact stated before it was closed', () => {
    const closed = { id: '5', similarity: 0.97, validTo: new Date('2026-02-22T11:00:00Z') };
    expect(planExtractedFact(fact, null, closed)).toEqual({ kind: 'skip', factId: '5' });
  });

  it('inserts a closed fact stated again after it was closed', () => {
    const closed = { id: '5', similarity: 0.97, validTo: new Date('2026-02-22T09:00:00Z') };
    expect(planExtractedFact(fact, null, closed)).toEqual({ kind: 'insert' });
  });

  it('prefers the open fact to update over a closed one', () => {
    const closed = { id: '5', similarity: 0.99, validTo: new Date('2026-02-22T11:00:00Z') };
    expect(planExtractedFact(fact, { id: '7', similarity: 0.95 }, closed)).toEqual({
      kind: 'update',
      factId: '7',
    });
  });
});
