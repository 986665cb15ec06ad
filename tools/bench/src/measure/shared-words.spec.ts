import { missesByReach, sharesWords, TurnWords } from './shared-words';

const turns = new TurnWords([
  {
    id: '1',
    agent: 'a',
    turnId: 'D1:1',
    conversationId: '1',
    author: 'Maria',
    lexemes: new Set(['often', 'workout']),
  },
  {
    id: '2',
    agent: 'a',
    turnId: 'D1:2',
    conversationId: '1',
    author: 'John',
    lexemes: new Set(['three', 'time', 'week']),
  },
  {
    id: '3',
    agent: 'a',
    turnId: 'D2:1',
    conversationId: '2',
    author: 'John',
    lexemes: new Set(['game', 'catan']),
  },
]);

describe('whether full text can reach the evidence', () => {
  it('counts a word shared with the evidence turn, or with the turn before it in its conversation', () => {
    const reach = (words: string[], evidence: string[]) =>
      sharesWords(new Set(words), evidence, turns.lexemesOf, turns.previousOf);
    expect(reach(['catan'], ['D2:1'])).toBe(true);
    // "Three times a week" answers "How often …?": the question's word is in the turn before.
    expect(reach(['often', 'famili'], ['D1:2'])).toBe(true);
    // A conversation's first turn has no turn before it, even if another conversation ends before.
    expect(reach(['three'], ['D2:1'])).toBe(false);
    expect(reach(['hobbi'], ['D1:2', 'D2:1'])).toBe(false);
    expect(reach(['game'], ['D9:9'])).toBe(false);
  });

  it('splits the misses at k by whether they shared a word', () => {
    const figures = missesByReach(
      [
        { ranks: [3], sharesWords: true },
        { ranks: [12, null], sharesWords: true },
        { ranks: [null], sharesWords: false },
      ],
      10,
    );
    expect(figures).toEqual({ k: 10, questions: 3, misses: 2, missesWithoutSharedWords: 1 });
  });
});
