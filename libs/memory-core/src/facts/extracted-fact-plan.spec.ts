import { planExtractedFact, SAME_FACT_SIMILARITY, SUPERSEDED_SIMILARITY } from './extracted-fact-plan';

describe('planExtractedFact', () => {
  it('inserts when the agent has no fact yet', () => {
    expect(planExtractedFact('fact', null)).toEqual({ kind: 'insert' });
  });

  it('updates in place at 0.90 and above', () => {
    expect(planExtractedFact('fact', { id: '7', similarity: SAME_FACT_SIMILARITY })).toEqual({ kind: 'update', factId: '7' });
    expect(planExtractedFact('correction', { id: '7', similarity: 0.99 })).toEqual({ kind: 'update', factId: '7' });
  });

  it('inserts a merely similar fact beside the older one', () => {
    expect(planExtractedFact('preference', { id: '7', similarity: 0.89 })).toEqual({ kind: 'insert' });
  });

  it('lets a correction close to an older fact supersede it', () => {
    expect(planExtractedFact('correction', { id: '7', similarity: SUPERSEDED_SIMILARITY })).toEqual({ kind: 'supersede', factId: '7' });
  });

  it('inserts a correction about something else', () => {
    expect(planExtractedFact('correction', { id: '7', similarity: 0.5 })).toEqual({ kind: 'insert' });
  });
});
