/**
 * Sentence and word segmentation for the built-in language engine. Boundaries come
 * from Unicode segmentation (Intl.Segmenter), so every script gets sensible splits;
 * a sentence's text is always an exact, trimmed slice of its input.
 */

export interface SentenceSpan {
  /** The sentence exactly as written, without surrounding whitespace. */
  text: string;
  /** Offsets of `text` in the input. */
  start: number;
  end: number;
}

const sentenceSegmenters = new Map<string, Intl.Segmenter>();
const wordSegmenters = new Map<string, Intl.Segmenter>();

function segmenter(
  cache: Map<string, Intl.Segmenter>,
  locale: string,
  granularity: 'sentence' | 'word',
): Intl.Segmenter {
  let found = cache.get(locale);
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity });
    cache.set(locale, found);
  }
  return found;
}

/** Abbreviations after which a full stop does not end a sentence (UAX #29 splits "Dr. Smith"). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'cf',
  'approx',
  'no',
  'nos',
  'fig',
  'figs',
  'vol',
  'ch',
  'sec',
  'p',
  'pp',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'est',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'a.m',
  'p.m',
]);

function endsWithAbbreviation(text: string): boolean {
  const match = /(?:^|[\s(])([A-Za-z](?:[A-Za-z.]*[A-Za-z])?)\.$/u.exec(text);
  return match !== null && ABBREVIATIONS.has(match[1].toLowerCase());
}

/**
 * The sentences of a text, in order. Line breaks end sentences (Unicode rules);
 * a split right after a known abbreviation ("Dr.", "e.g.") is undone.
 */
export function splitSentences(text: string, locale = 'en'): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  for (const segment of segmenter(sentenceSegmenters, locale, 'sentence').segment(text)) {
    const raw = segment.segment;
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const start = segment.index + lead;
    const span = { text: trimmed, start, end: start + trimmed.length };
    const previous = spans[spans.length - 1];
    const sameLine =
      previous !== undefined && !/[\r\n\u2028\u2029]/u.test(text.slice(previous.end, span.start));
    if (previous && sameLine && endsWithAbbreviation(previous.text)) {
      previous.end = span.end;
      previous.text = text.slice(previous.start, previous.end);
    } else {
      spans.push(span);
    }
  }
  return spans;
}

/** The word-like segments of a text, case-folded and NFKC-normalised, in order (with repeats). */
export function wordsOf(text: string, locale = 'en'): string[] {
  const words: string[] = [];
  for (const segment of segmenter(wordSegmenters, locale, 'word').segment(text.normalize('NFKC'))) {
    if (segment.isWordLike) words.push(segment.segment.toLocaleLowerCase());
  }
  return words;
}

/**
 * English function words and conversational acknowledgements ("sounds good",
 * "thanks", "got it"); they carry no topic. Other languages rely on IDF alone.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    "few for from further get got had hadn't has hasn't have haven't having he he'd he'll he's her here here's " +
    "hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just " +
    "let let's like me more most much must mustn't my myself no nor not now of off on once only or other ought our " +
    "ours ourselves out over own really same shan't she she'd she'll she's should shouldn't so some such than that " +
    "that's the their theirs them themselves then there there's these they they'd they'll they're they've this " +
    "those through to too under until up us very was wasn't we we'd we'll we're we've were weren't what what's " +
    "when when's where where's which while who who's whom why why's will with won't would wouldn't yes yeah you " +
    "you'd you'll you're you've your yours yourself yourselves ok okay oh ah hmm um uh sure thanks thank please " +
    'hi hello hey well right yep nope lol haha one also still even maybe ' +
    'sounds sound good great perfect awesome nice cool welcome glad got makes sense agreed alright fine ' +
    "let's moment sec see"
  ).split(' '),
);

/**
 * Content terms of a text for similarity: words minus English stopwords, with a
 * light English suffix folding (plural -s, -ing, -ed) so "deploys", "deploying"
 * and "deployed" meet. Words of other scripts are kept as segmented.
 */
export function contentTerms(text: string, locale = 'en'): string[] {
  const terms: string[] = [];
  for (const word of wordsOf(text, locale)) {
    const plain = word.replace(/[\u2019]/gu, "'");
    if (ENGLISH_STOPWORDS.has(plain)) continue;
    terms.push(foldSuffix(plain));
  }
  return terms;
}

function foldSuffix(word: string): string {
  if (!/^[a-z]+$/u.test(word) || word.length <= 4) return word;
  if (word.endsWith('ies') && word.length > 5) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(?:ss|sh|ch|x|z)es$/u.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}
