import { citingOnlyHits } from './memory-answer-citations';

describe('citingOnlyHits', () => {
  const hits = [{ id: 'message:12' }, { id: 'fact:3' }, { id: 'summary:7' }];

  it('keeps the citations of given hits', () => {
    const answer = {
      answer: 'Bailey and Oliver [message:12]; Ada prefers tea [fact:3].',
      citedIds: ['message:12', 'fact:3'],
    };
    expect(citingOnlyHits(answer, hits)).toEqual(answer);
  });

  it('drops ids that were not given, from the list and from the text', () => {
    expect(
      citingOnlyHits(
        {
          answer: 'Bailey and Oliver [message:12, message:999]. Ada lives in Oslo [fact:42].',
          citedIds: ['message:12', 'fact:42', 'message:999'],
        },
        hits,
      ),
    ).toEqual({ answer: 'Bailey and Oliver [message:12]. Ada lives in Oslo.', citedIds: ['message:12'] });
  });

  it('adds ids cited in the text that the list forgot, once, and leaves brackets that are not citations', () => {
    expect(
      citingOnlyHits({ answer: 'Tea [fact:3][summary:7], as she said [sic] [fact:3].', citedIds: [] }, hits),
    ).toEqual({
      answer: 'Tea [fact:3][summary:7], as she said [sic] [fact:3].',
      citedIds: ['fact:3', 'summary:7'],
    });
  });
});
