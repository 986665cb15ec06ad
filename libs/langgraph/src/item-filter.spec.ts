import { matches, splitFilter } from './item-filter';

describe('a LangGraph search filter', () => {
  it('sends equalities to Engram as containment and keeps the other comparisons', () => {
    expect(
      splitFilter({ kind: 'preference', stars: { $eq: 5 }, score: { $gt: 3, $lte: 9 }, tags: ['tea'] }),
    ).toEqual({
      contained: { kind: 'preference', stars: 5, tags: ['tea'] },
      compared: [['score', { $gt: 3, $lte: 9 }]],
    });
    expect(splitFilter(undefined)).toEqual({ contained: {}, compared: [] });
  });

  it('compares as InMemoryStore compares', () => {
    const value = { score: 4, colour: 'red' };
    const check = (filter: Record<string, unknown>) => matches(value, splitFilter(filter).compared);
    expect(check({ score: { $gt: 3 } })).toBe(true);
    expect(check({ score: { $gte: 4, $lt: 4 } })).toBe(false);
    expect(check({ score: { $lte: '4' } })).toBe(true);
    expect(check({ colour: { $ne: 'blue' } })).toBe(true);
    expect(check({ colour: { $in: ['red', 'green'] } })).toBe(true);
    expect(check({ colour: { $nin: ['red'] } })).toBe(false);
    expect(check({ colour: { $eq: 'red', $ne: 'blue' } })).toBe(true);
    expect(check({ missing: { $ne: 'x' } })).toBe(true);
  });
});
