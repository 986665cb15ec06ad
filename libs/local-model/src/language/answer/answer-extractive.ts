import { isoDay } from '../attribution';
import { contentTerms, splitSentences } from '../sentences';

/** A memory item the answer may quote. */
export interface AnswerSource {
  /** What the answer cites, e.g. "message:123". */
  id: string;
  text: string;
  at: Date;
  author?: string | null;
}

export interface ExtractiveAnswer {
  answer: string;
  /** The ids quoted, in the answer's order. */
  citedIds: string[];
}

export interface ExtractiveAnswerOptions {
  /** Most sentences quoted. Default 3. */
  maxSentences?: number;
  /** A longer sentence is cut at a word boundary. Default 300. */
  maxSentenceChars?: number;
  /** Share of the best sentence's score another needs to be quoted as well. Default 0.5. */
  minRelativeScore?: number;
  /** Locale for sentence and word segmentation. Default 'en'. */
  locale?: string;
}

/** What the built-in engine says when no sentence shares a content word with the question. */
export const NOTHING_IN_MEMORY = 'Memory holds nothing on this.';

interface Sentence {
  readonly source: number;
  readonly position: number;
  readonly text: string;
  readonly matched: ReadonlySet<string>;
}

/**
 * An answer without a language model: the 1–3 sentences of the sources that share the
 * most (IDF-weighted) content words with the question, quoted with who said them, when,
 * and the id of their item. Sources come best first; a tie goes to the better source.
 */
export function answerExtractive(
  question: string,
  sources: readonly AnswerSource[],
  options: ExtractiveAnswerOptions = {},
): ExtractiveAnswer {
  const locale = options.locale ?? 'en';
  const wanted = new Set(contentTerms(question, locale));
  const sentences: Sentence[] = sources.flatMap((source, index) =>
    splitSentences(source.text, locale).map((span, position) => ({
      source: index,
      position,
      text: span.text,
      matched: new Set(contentTerms(span.text, locale).filter((term) => wanted.has(term))),
    })),
  );
  const scored = rank(
    sentences.filter((s) => s.matched.size > 0),
    sentences.length,
  );
  if (scored.length === 0) return { answer: NOTHING_IN_MEMORY, citedIds: [] };

  const floor = scored[0]!.score * (options.minRelativeScore ?? 0.5);
  const picked: Sentence[] = [];
  const seen = new Set<string>();
  for (const { sentence, score } of scored) {
    if (picked.length >= (options.maxSentences ?? 3) || score < floor) break;
    // The same sentence said twice (a repeated turn, a fact and its source) is quoted once.
    const key = contentTerms(sentence.text, locale).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(sentence);
  }

  // Read in the sources' order, each source's sentences as written, one citation per source.
  picked.sort((a, b) => a.source - b.source || a.position - b.position);
  const quotes = new Map<number, string[]>();
  for (const sentence of picked)
    quotes.set(sentence.source, [
      ...(quotes.get(sentence.source) ?? []),
      clip(sentence.text, options.maxSentenceChars ?? 300),
    ]);
  const parts = [...quotes].map(
    ([index, texts]) => `${lead(sources[index]!)}: ${texts.join(' ')} [${sources[index]!.id}]`,
  );
  const citedIds = [...quotes.keys()].map((index) => sources[index]!.id);
  return { answer: parts.join('\n'), citedIds };
}

/** Each matched term weighs its inverse sentence frequency: a rare shared word says more than a common one. */
function rank(matching: readonly Sentence[], total: number): Array<{ sentence: Sentence; score: number }> {
  const df = new Map<string, number>();
  for (const s of matching) for (const term of s.matched) df.set(term, (df.get(term) ?? 0) + 1);
  return matching
    .map((sentence) => ({
      sentence,
      score: [...sentence.matched].reduce((sum, term) => sum + Math.log(1 + total / df.get(term)!), 0),
    }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.sentence.source - b.sentence.source ||
        a.sentence.position - b.sentence.position,
    );
}

function lead(source: AnswerSource): string {
  const day = isoDay(source.at);
  return source.author ? `${source.author} on ${day}` : `On ${day}`;
}

function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars / 2 ? cut.slice(0, space) : cut}…`;
}
