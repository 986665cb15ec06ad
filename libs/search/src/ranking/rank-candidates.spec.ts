import type { Candidate } from './candidate';
import {
  AUTHOR_MATCH,
  CONVERSATION_SPREAD,
  rankCandidates,
  reciprocalRankFusion,
  ROLE_MATCH,
  type QueryTerm,
} from './rank-candidates';

const now = new Date('2026-11-21T00:00:00Z');
const message = (id: string, over: Partial<Candidate> = {}): Candidate => ({
  kind: 'message',
  id,
  role: 'user',
  conversationId: '1',
  author: null,
  createdAt: now,
  lastAccessedAt: null,
  accessCount: 0,
  length: 10,
  matched: 0,
  cosine: null,
  asks: false,
  importance: null,
  eligible: true,
  ...over,
});
const terms = (...lexemes: string[]): QueryTerm[] => lexemes.map((l) => ({ lexeme: l, words: [l], idf: 1 }));
const rank = (candidates: Candidate[], t = terms('pet'), fusion: 'weighted' | 'rrf' = 'weighted') =>
  rankCandidates({ terms: t, candidates, averageLength: 10, window: null, fusion, now });

describe('reciprocalRankFusion', () => {
  it('sums 1/(60 + rank) over the lists an item is in', () => {
    const fused = reciprocalRankFusion([
      [0.9, 0.5, null],
      [0.1, 0.8, 0.7],
    ]);
    expect(fused[0]).toBeCloseTo(1 / 61 + 1 / 63, 12);
    expect(fused[1]).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[2]).toBeCloseTo(1 / 62, 12);
  });
});

describe('rankCandidates', () => {
  it('fuses full text 0.3, semantic 0.3, temporal 0.01 and importance 0.1', () => {
    const [top] = rank([message('1', { matched: 1, cosine: 0.5 })]);
    expect(top!.signals).toMatchObject({ fulltext: 1, semantic: 0.5, temporal: 1, importance: 0.5 });
    expect(top!.signals.fused).toBeCloseTo(0.3 + 0.15 + 0.01 + 0.05, 10);
  });

  it('lends the answer the words of the question before it', () => {
    const question = message('1', { matched: 1, asks: true, neighbours: [null, null, '2', null] });
    const answer = message('2', { matched: 0, neighbours: [null, '1', null, null] });
    const unrelated = message('3', { matched: 0, neighbours: [null, null, null, null] });
    const ranked = rank([question, answer, unrelated]);
    const score = (id: string) => ranked.find((r) => r.candidate.id === id)!.signals.fulltext;
    expect(score('2')).toBeGreaterThan(0.5);
    expect(score('3')).toBe(0);
  });

  it('lifts the semantic signal of a turn whose window, on either side, is about the query', () => {
    // "We made pottery with the kids" two turns before "They loved it!": the topic is said a turn or two away.
    const topic = message('1', { cosine: 0.9, neighbours: [null, null, '2', '3'] });
    const between = message('2', { cosine: 0.1, neighbours: [null, '1', '3', null] });
    const answer = message('3', { cosine: 0.3, neighbours: ['1', '2', null, null] });
    const before = message('4', { cosine: 0.3, neighbours: [null, null, '5', '6'] });
    const aside = message('5', { cosine: 0.1, neighbours: [null, '4', '6', null] });
    const later = message('6', { cosine: 0.9, neighbours: ['4', '5', null, null] });
    const alone = message('7', { cosine: 0.3, neighbours: [null, null, null, null] });
    const ranked = rank([topic, between, answer, before, aside, later, alone], []);
    const semantic = (id: string) => ranked.find((r) => r.candidate.id === id)!.signals.semantic;
    expect(semantic('3')).toBeGreaterThan(semantic('7'));
    expect(semantic('4')).toBeGreaterThan(semantic('7'));
    expect(semantic('3')).toBeCloseTo(semantic('4'), 10);
    expect(semantic('3')).toBeLessThan(0.9);
  });

  it('reads a query word naming an author as "said by", not as a word to find', () => {
    const t: QueryTerm[] = [
      { lexeme: 'carolin', words: ['caroline'], idf: 2 },
      { lexeme: 'pet', words: ['pets'], idf: 2 },
    ];
    const greeting = message('1', { author: 'Melanie', matched: 0b11 }); // "Caroline, what a cute pet!"
    const own = message('2', { author: 'Caroline', matched: 0b10 }); // Caroline about her pet
    const ranked = rankCandidates({
      terms: t,
      candidates: [greeting, own],
      averageLength: 10,
      window: null,
      fusion: 'weighted',
      now,
    });
    expect(ranked[0]!.candidate.id).toBe('2');
    expect(AUTHOR_MATCH).toBeGreaterThan(0);
  });

  it('prefers the role the query asks about over a longer text of the other role that matches more', () => {
    const t: QueryTerm[] = [
      { lexeme: 'previous', words: ['previous'], idf: 1 },
      { lexeme: 'occup', words: ['occupation'], idf: 3 },
      { lexeme: 'startup', words: ['startup'], idf: 1 },
    ];
    // "I used Trello in my previous role at a startup" against the assistant's long answer.
    const said = message('1', { role: 'user', matched: 0b101, length: 20 });
    const answer = message('2', { role: 'assistant', matched: 0b111, length: 200 });
    const ask = (role: 'user' | 'assistant' | null) =>
      rankCandidates({
        terms: t,
        candidates: [answer, said],
        averageLength: 30,
        window: null,
        fusion: 'weighted',
        now,
        role,
      }).map((r) => r.candidate.id);
    expect(ask('user')).toEqual(['1', '2']);
    expect(ask(null)).toEqual(['2', '1']);
    expect(ask('assistant')).toEqual(['2', '1']);
    expect(ROLE_MATCH).toBeGreaterThan(0);
  });

  it('counts a fact as what the user said: "my …" finds it as it finds their turns', () => {
    const t = terms('cat');
    const fact = message('9', { kind: 'fact', role: null, matched: 1, importance: 6 });
    const said = message('1', { role: 'user', matched: 1 });
    const answer = message('2', { role: 'assistant', matched: 1 });
    const [top, second] = rankCandidates({
      terms: t,
      candidates: [answer, said, fact],
      averageLength: 10,
      window: null,
      fusion: 'weighted',
      now,
      role: 'user',
    });
    expect([top!.candidate.id, second!.candidate.id]).toEqual(['9', '1']);
  });

  it('lets recency only break near-ties: an old answer still outranks a fresh near-miss', () => {
    const old = message('1', { matched: 0b11, createdAt: new Date('2026-05-01') });
    const fresh = message('2', { matched: 0b01, createdAt: now });
    expect(rank([fresh, old], terms('pottery', 'kids')).map((r) => r.candidate.id)).toEqual(['1', '2']);
    const same = message('3', { matched: 0b11, createdAt: new Date('2026-11-20') });
    expect(rank([old, same], terms('pottery', 'kids'))[0]!.candidate.id).toBe('3');
  });

  it('spreads the hits of a query asking for several things over conversations', () => {
    // Three good turns of one conversation, a slightly weaker one of another.
    const candidates = [
      message('1', { matched: 0b11, conversationId: 'a', cosine: 0.5 }),
      message('2', { matched: 0b11, conversationId: 'a', cosine: 0.49 }),
      message('3', { matched: 0b11, conversationId: 'a', cosine: 0.48 }),
      message('4', { matched: 0b11, conversationId: 'b', cosine: 0.4 }),
    ];
    const ask = (several: boolean) =>
      rankCandidates({
        terms: terms('city', 'visit'),
        candidates,
        averageLength: 10,
        window: null,
        fusion: 'weighted',
        now,
        several,
      }).map((r) => r.candidate.id);
    expect(ask(false)).toEqual(['1', '2', '3', '4']);
    // The third of conversation a yields to b's (0.514 · 0.9 < 0.49); the second does not (0.517 · 0.95 > 0.49).
    expect(ask(true)).toEqual(['1', '2', '4', '3']);
    expect(CONVERSATION_SPREAD).toBeGreaterThan(0);
  });

  it('boosts what falls in the time the query names', () => {
    const window = { from: new Date('2023-06-01'), to: new Date('2023-06-10') };
    const inside = message('1', { matched: 1, createdAt: new Date('2023-06-05') });
    const outside = message('2', { matched: 1, createdAt: new Date('2023-09-05') });
    const ranked = rankCandidates({
      terms: terms('pet'),
      candidates: [outside, inside],
      averageLength: 10,
      window,
      fusion: 'weighted',
      now,
    });
    expect(ranked[0]!.candidate.id).toBe('1');
    expect(ranked[0]!.signals.timeMatch).toBe(1);
  });

  it('returns only eligible candidates; the others only lend context', () => {
    const ranked = rank([message('1', { matched: 1, eligible: false }), message('2', { matched: 1 })]);
    expect(ranked.map((r) => r.candidate.id)).toEqual(['2']);
  });

  it('in RRF mode ranks by reciprocal rank of full text and semantic', () => {
    const ranked = rank(
      [message('1', { matched: 1, cosine: 0.1 }), message('2', { matched: 0, cosine: 0.9 })],
      terms('pet'),
      'rrf',
    );
    expect(ranked[0]!.signals.fused).toBeCloseTo(1 / 61 + 1 / 62, 12);
  });
});
