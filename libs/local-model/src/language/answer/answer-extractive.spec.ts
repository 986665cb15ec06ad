import { answerExtractive, NOTHING_IN_MEMORY, type AnswerSource } from './answer-extractive';

describe('answerExtractive', () => {
  const at = new Date('2026-06-01T10:00:00Z');
  const sources: AnswerSource[] = [
    {
      id: 'message:1',
      text: 'Hey! I finally moved into the new flat in Lisbon last weekend.',
      at,
      author: 'Ada',
    },
    { id: 'message:2', text: 'Two cats, Bailey and Oliver. They love the balcony.', at, author: 'Ada' },
    { id: 'fact:7', text: 'Ada prefers tea over coffee', at: new Date('2026-05-03T08:00:00Z') },
    {
      id: 'message:3',
      text: 'The Postgres migration failed again because of the old credentials.',
      at,
      author: 'Ada',
    },
  ];

  it('quotes the sentence that shares the question’s content words, with who, when and its id', () => {
    expect(answerExtractive('What are the names of the cats?', sources)).toEqual({
      answer: 'Ada on 2026-06-01: Two cats, Bailey and Oliver. [message:2]',
      citedIds: ['message:2'],
    });
  });

  it('matches across inflections and leaves out sentences of the same item that do not match', () => {
    const answer = answerExtractive('Why did the migrations fail?', sources);
    expect(answer.citedIds).toEqual(['message:3']);
    expect(answer.answer).toBe(
      'Ada on 2026-06-01: The Postgres migration failed again because of the old credentials. [message:3]',
    );
  });

  it('quotes sentences from several items in the items’ order, one citation per item', () => {
    const answer = answerExtractive('Lisbon, the cats and tea', sources);
    expect(answer.citedIds).toEqual(['message:1', 'message:2', 'fact:7']);
    expect(answer.answer.split('\n')).toEqual([
      'Ada on 2026-06-01: I finally moved into the new flat in Lisbon last weekend. [message:1]',
      'Ada on 2026-06-01: Two cats, Bailey and Oliver. [message:2]',
      'On 2026-05-03: Ada prefers tea over coffee [fact:7]',
    ]);
  });

  it('quotes at most three sentences, an item’s sentences together under one citation', () => {
    const answer = answerExtractive('Lisbon, the balcony, the cats and tea', sources);
    expect(answer.answer.split('\n')).toEqual([
      'Ada on 2026-06-01: I finally moved into the new flat in Lisbon last weekend. [message:1]',
      'Ada on 2026-06-01: Two cats, Bailey and Oliver. They love the balcony. [message:2]',
    ]);
    expect(answer.citedIds).toEqual(['message:1', 'message:2']);
  });

  it('keeps only sentences that come close to the best one', () => {
    const answer = answerExtractive('Bailey and Oliver love the Lisbon flat', [
      { id: 'message:9', text: 'Bailey and Oliver love the flat in Lisbon.', at },
      { id: 'message:8', text: 'Lisbon is sunny.', at },
    ]);
    expect(answer.citedIds).toEqual(['message:9']);
  });

  it('quotes a sentence said twice only once, from the better item', () => {
    const answer = answerExtractive('coffee', [
      { id: 'fact:1', text: 'Ada used to prefer coffee.', at },
      { id: 'message:4', text: 'Ada used to prefer coffee', at },
    ]);
    expect(answer.citedIds).toEqual(['fact:1']);
  });

  it('says memory holds nothing, citing nothing, when no sentence shares a content word', () => {
    expect(answerExtractive('Where does Bob work?', sources)).toEqual({
      answer: NOTHING_IN_MEMORY,
      citedIds: [],
    });
    expect(answerExtractive('what is it?', sources)).toEqual({ answer: NOTHING_IN_MEMORY, citedIds: [] });
    expect(answerExtractive('cats', [])).toEqual({ answer: NOTHING_IN_MEMORY, citedIds: [] });
  });

  it('cuts a very long sentence at a word boundary', () => {
    const long = `The cats ${'really '.repeat(100)}like fish.`;
    const answer = answerExtractive('cats', [{ id: 'message:5', text: long, at }], { maxSentenceChars: 60 });
    const quote = answer.answer.replace(/^On 2026-06-01: /, '').replace(/ \[message:5\]$/, '');
    expect(quote.length).toBeLessThanOrEqual(60);
    expect(quote).toMatch(/^The cats really( really)*…$/);
  });
});
