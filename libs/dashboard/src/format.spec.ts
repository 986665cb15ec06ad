import { groupBy, lifetimeLeft, when, whyItScored } from './format';

describe('dashboard wording', () => {
  const now = new Date('2026-01-10T12:00:00Z');

  it('words a fact’s lifetime left: sticky never expires, then days, then hours', () => {
    expect(lifetimeLeft(undefined, now)).toBe('never expires');
    expect(lifetimeLeft('2026-01-20T13:00:00Z', now)).toBe('10 d left');
    expect(lifetimeLeft('2026-01-10T15:30:00Z', now)).toBe('3 h left');
    expect(lifetimeLeft('2026-01-10T12:10:00Z', now)).toBe('1 h left');
    expect(lifetimeLeft('2026-01-09T12:00:00Z', now)).toBe('expired');
  });

  it('groups facts by category, categories in alphabetical order, facts kept in order', () => {
    const facts = [
      { id: '1', category: 'preference' },
      { id: '2', category: 'fact' },
      { id: '3', category: 'preference' },
    ];
    expect(groupBy(facts, (f) => f.category)).toEqual([
      ['fact', [facts[1]]],
      ['preference', [facts[0], facts[2]]],
    ]);
  });

  it('shows a timestamp in the reader’s time zone, to the second; none as a dash', () => {
    expect(when(new Date(2026, 3, 1, 9, 5, 7).toISOString())).toBe('2026-04-01 09:05:07');
    expect(when(new Date(2026, 11, 31, 23, 59, 59).toISOString())).toBe('2026-12-31 23:59:59');
    expect(when(undefined)).toBe('—');
  });

  it('says why a hit scored from its non-zero signals', () => {
    expect(whyItScored({ fulltext: 0.4213, semantic: 0, temporal: 0.1, importance: 0, timeMatch: 1 })).toBe(
      'full text 0.42 · recency 0.10 · time match 1.00',
    );
    expect(whyItScored(undefined)).toBe('');
  });
});
