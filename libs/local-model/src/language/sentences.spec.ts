import { contentTerms, splitSentences, wordsOf } from './sentences';

describe('splitSentences', () => {
  it('splits on sentence ends and line breaks, returning exact slices with offsets', () => {
    const text = 'First one. Second one!\nThird line without a stop\n\n  Fourth?';
    const spans = splitSentences(text);
    expect(spans.map((span) => span.text)).toEqual([
      'First one.',
      'Second one!',
      'Third line without a stop',
      'Fourth?',
    ]);
    for (const span of spans) expect(text.slice(span.start, span.end)).toBe(span.text);
  });

  it('does not split after common abbreviations, file names or versions', () => {
    const text = 'Dr. Smith moved index.ts to v1.2.3 yesterday. Then e.g. the tests ran.';
    expect(splitSentences(text).map((span) => span.text)).toEqual([
      'Dr. Smith moved index.ts to v1.2.3 yesterday.',
      'Then e.g. the tests ran.',
    ]);
  });

  it('segments scripts without spaces', () => {
    expect(splitSentences('我喜欢咖啡。他住在北京。')).toHaveLength(2);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n ')).toEqual([]);
  });
});

describe('wordsOf / contentTerms', () => {
  it('lower-cases and keeps identifiers whole', () => {
    expect(wordsOf('Read max_connections in index.ts')).toEqual([
      'read',
      'max_connections',
      'in',
      'index.ts',
    ]);
  });

  it('drops stopwords and acknowledgements and folds English suffixes', () => {
    expect(contentTerms('Sounds good, thanks!')).toEqual([]);
    expect(contentTerms('The deploys failed while deploying')).toEqual(['deploy', 'fail', 'deploy']);
  });
});
