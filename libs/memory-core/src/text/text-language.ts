/**
 * A language detector: tinyld's `detectAll` (ISO 639-1 codes, best first), passed in by the
 * service that detects, so that loading its profiles (50 MB, over a second) costs no other one.
 */
export type DetectLanguages = (
  text: string,
  options: { only: string[] },
) => ReadonlyArray<{ lang: string; accuracy: number }>;

/**
 * Which Postgres text-search configuration a conversation's text is indexed with. Postgres 15
 * ships a snowball stemmer for each language below (ISO 639-1 → `pg_ts_config.cfgname`);
 * `simple` (lower-cased words, no stemming) serves a language it has none for.
 */
export const TEXT_SEARCH_CONFIGURATIONS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The ISO 639-1 code of a configuration's language; `und` (undetermined) for `simple` or one not listed. */
export function languageCodeOf(configuration: string): string {
  return (
    Object.keys(TEXT_SEARCH_CONFIGURATIONS).find(
      (code) => TEXT_SEARCH_CONFIGURATIONS[code] === configuration,
    ) ?? 'und'
  );
}

/** Configuration of text whose language is not known: what every row had before languages (English). */
export const DEFAULT_TEXT_SEARCH = 'english';
/** Configuration of a language Postgres has no stemmer for. */
export const UNSTEMMED_TEXT_SEARCH = 'simple';

/**
 * Languages the detector chooses among: those with a stemmer, and widely written ones without
 * (their text goes to `simple` rather than to the nearest stemmed language's guess).
 */
const DETECTED = [
  ...Object.keys(TEXT_SEARCH_CONFIGURATIONS),
  ...['zh', 'ja', 'ko', 'th', 'vi', 'he', 'fa', 'uk', 'bg', 'pl', 'cs', 'sk', 'hr'],
];

/**
 * A conversation's language is decided once its prose reaches this many letters. Measured on
 * the LoCoMo and LongMemEval-S dev transcripts (3,037 English conversations): deciding on
 * single messages called 2 % of them another language (669 of 32,429, most of them short),
 * on 200 letters of paragraph votes 0.2 % (6, of which 4 are French, Portuguese, Spanish or
 * Chinese indeed).
 */
export const DECIDING_LETTERS = 200;
/** A paragraph shorter than this says too little to vote (tinyld calls "Hey Mel!" Icelandic). */
const VOTING_LETTERS = 20;
/** The winning language must hold this share of the voting letters; below it the text is mixed. */
const WINNING_SHARE = 0.6;
/**
 * A paragraph votes for its best language only when that scores this many times the runner-up
 * (tinyld's scores fall with length: a clear 300-letter Italian paragraph may score 0.09).
 */
const RUNNER_UP_MARGIN = 2;

const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

/**
 * The prose of a message: without code blocks, table rows, addresses and tokens holding
 * digits or markup, which the detector reads as some language (a Markdown table as Hindi).
 */
export function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*\|/.test(line))
    .join('\n')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S*[\d_@#<>{}[\]=\\/*|`~^$]\S*/g, ' ');
}

/**
 * The text-search configuration of a conversation from its texts in order, or null while they
 * hold fewer than DECIDING_LETTERS letters of prose (undecided: ask again with more). Each
 * paragraph votes for its language with its letters; a language holding WINNING_SHARE of the
 * votes wins. Mixed or uncertain text gets DEFAULT_TEXT_SEARCH, not `simple`: 41 of the
 * 3,037 English conversations measured are uncertain, and would lose English stemming.
 */
export function textSearchOf(texts: readonly string[], detect: DetectLanguages): string | null {
  const votes = new Map<string, number>();
  let total = 0;
  for (const text of texts) {
    for (const paragraph of proseOf(text).split(/\n+/)) {
      const letters = letterCount(paragraph);
      if (letters < VOTING_LETTERS) continue;
      const [best, runnerUp] = detect(paragraph, { only: DETECTED });
      const clear = best && (!runnerUp || best.accuracy >= RUNNER_UP_MARGIN * runnerUp.accuracy);
      const language = clear ? best.lang : '';
      votes.set(language, (votes.get(language) ?? 0) + letters);
      total += letters;
    }
    if (total >= DECIDING_LETTERS) break;
  }
  if (total < DECIDING_LETTERS) return null;
  const [language, letters] = [...votes].sort((a, b) => b[1] - a[1])[0]!;
  if (language === '' || letters / total < WINNING_SHARE) return DEFAULT_TEXT_SEARCH;
  return TEXT_SEARCH_CONFIGURATIONS[language] ?? UNSTEMMED_TEXT_SEARCH;
}
