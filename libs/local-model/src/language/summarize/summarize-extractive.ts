import {
  attributionPrefix,
  ordinalWidthFor,
  renderPreamble,
  type AttributedLine,
  type ConversationPreamble,
} from '../attribution';
import { findIdentifiers } from '../identifiers';
import { contentTerms, splitSentences } from '../sentences';
import { lexRank, similarityMatrix, tfidfVectors } from './similarity';

/** One message of the span being summarised. */
export interface SummaryInputLine extends AttributedLine {
  text: string;
  /** The message id (not rendered; kept so callers can trace picks). */
  id?: string;
}

export interface ExtractiveSummaryInput {
  preamble: ConversationPreamble;
  /** In transcript order. */
  lines: readonly SummaryInputLine[];
}

export interface ExtractiveSummaryOptions {
  /** Hard cap on the summary's length in characters, header included. */
  maxChars: number;
  /** Locale for sentence and word segmentation. Default 'en'. */
  locale?: string;
  /** Cosine similarity at or above which two sentences count as saying the same thing. Default 0.7. */
  redundancyThreshold?: number;
  /**
   * Share of a sentence's content words (it needs at least 3) already in a kept
   * sentence at or above which it adds nothing. Default 0.7. A sentence with an
   * identifier the summary does not hold yet is only dropped as a (near-)verbatim repeat.
   */
  containmentThreshold?: number;
  /** MMR trade-off: 1 = rank only, 0 = novelty only. Default 0.7. */
  relevanceWeight?: number;
  /** Extra weight for a sentence with identifiers (reached at 3 distinct ones). Default 0.5. */
  identifierBonus?: number;
  /** Score multipliers by role. Default system 1.3, tool 0.7, others 1. */
  roleWeights?: Readonly<Record<string, number>>;
}

/** A sentence the summariser kept. */
export interface SummaryPick {
  /** Index into `input.lines`. */
  line: number;
  /** Index of the sentence within its line. */
  sentence: number;
  text: string;
  score: number;
}

export interface ExtractiveSummary {
  text: string;
  header: string;
  /** In transcript order. */
  picks: SummaryPick[];
  /** How many candidate sentences there were (sentences without content words are not candidates). */
  candidates: number;
}

const DEFAULT_ROLE_WEIGHTS: Readonly<Record<string, number>> = { system: 1.3, tool: 0.7 };
const GAP = ' … ';

interface Candidate {
  line: number;
  sentence: number;
  text: string;
  terms: string[];
  distinct: Set<string>;
  identifiers: string[];
}

/** Content words at which a sentence counts as fully informative. */
const RICH_SENTENCE_TERMS = 8;
/** Cosine at which a sentence with a new identifier still counts as a repeat. */
const VERBATIM = 0.92;

/** A line of an extractive summary: its attribution and its text. */
const ATTRIBUTED_LINE = /^(\[#\d+ [^\]]*\]) (.*)$/;

interface FlatLine extends SummaryInputLine {
  /** Index of the input line it comes from. */
  readonly origin: number;
  /** The attribution it already had, when it comes from a summary being summarised again. */
  readonly prefix?: string;
}

/**
 * A branch or root summarises summaries: each child's header goes, and each of its
 * attributed lines becomes a line of its own under its original attribution, so a summary
 * of summaries still says who said what and when, with no headers nested in it.
 */
function flattenSummaries(lines: readonly SummaryInputLine[]): FlatLine[] {
  return lines.flatMap((line, origin): FlatLine[] => {
    const rows = line.text.split('\n');
    const attributed = rows.slice(1).map((row) => ATTRIBUTED_LINE.exec(row));
    if (rows.length < 2 || ATTRIBUTED_LINE.test(rows[0]!) || !attributed.every(Boolean))
      return [{ ...line, origin }];
    return attributed.map((match) => ({ ...line, origin, prefix: match![1]!, text: match![2]! }));
  });
}

/**
 * An extractive summary: a one-line header from the preamble, then the most
 * informative sentences of the span in their original order, each line prefixed
 * with its attribution (`[#03 2026-04-18T12:04Z opus/user]`), sentences of one
 * message sharing its prefix (` … ` marks sentences left out between them).
 * Kept sentences are exact slices of the input; the result never exceeds
 * `maxChars` (if even the header does not fit, it is cut and ends in `…`).
 */
export function summarizeExtractive(
  input: ExtractiveSummaryInput,
  options: ExtractiveSummaryOptions,
): string {
  return extractiveSummary(input, options).text;
}

/** {@link summarizeExtractive} with the picks and scores behind it. */
export function extractiveSummary(
  input: ExtractiveSummaryInput,
  options: ExtractiveSummaryOptions,
): ExtractiveSummary {
  const maxChars = Math.max(0, Math.floor(options.maxChars));
  const locale = options.locale ?? 'en';
  const threshold = options.redundancyThreshold ?? 0.7;
  const containmentThreshold = options.containmentThreshold ?? 0.7;
  const lambda = options.relevanceWeight ?? 0.7;
  const identifierBonus = options.identifierBonus ?? 0.5;
  const roleWeights = { ...DEFAULT_ROLE_WEIGHTS, ...(options.roleWeights ?? {}) };

  const fullHeader = renderPreamble(input.preamble);
  if (fullHeader.length > maxChars) {
    const header = maxChars <= 1 ? '…'.slice(0, maxChars) : `${fullHeader.slice(0, maxChars - 1)}…`;
    return { text: header, header, picks: [], candidates: 0 };
  }

  const lines = flattenSummaries(input.lines);
  const width = ordinalWidthFor(input.lines);
  const prefixes = lines.map((line) => line.prefix ?? attributionPrefix(line, width));

  const candidates: Candidate[] = [];
  lines.forEach((line, lineIndex) => {
    splitSentences(line.text ?? '', locale).forEach((span, sentenceIndex) => {
      const terms = contentTerms(span.text, locale);
      if (terms.length === 0) return; // "Thanks!", "Ok.", a lone "}"
      candidates.push({
        line: lineIndex,
        sentence: sentenceIndex,
        text: span.text,
        terms,
        distinct: new Set(terms),
        identifiers: findIdentifiers(span.text),
      });
    });
  });

  const vectors = tfidfVectors(candidates.map((candidate) => candidate.terms));
  const similarities = similarityMatrix(vectors);
  const centrality = lexRank(similarities);
  const topCentrality = centrality.reduce((max, value) => Math.max(max, value), 0) || 1;
  // Centrality finds what the span is about; richness keeps a lone but
  // substantial sentence (a decision said once) from ranking like filler.
  const scores = candidates.map((candidate, i) => {
    const role = lines[candidate.line]!.role;
    const richness = Math.min(1, candidate.distinct.size / RICH_SENTENCE_TERMS);
    const identifierFactor = 1 + (identifierBonus * Math.min(candidate.identifiers.length, 3)) / 3;
    return (
      (0.6 * (centrality[i] / topCentrality) + 0.4 * richness) * identifierFactor * (roleWeights[role] ?? 1)
    );
  });
  const topScore = scores.reduce((max, score) => Math.max(max, score), 0) || 1;

  // Greedy MMR under the character budget.
  const kept = new Map<number, number[]>(); // line → kept candidate indices, ascending
  const chosen: number[] = [];
  let length = fullHeader.length;
  const open = new Set(candidates.map((_, i) => i));
  const maxSimilarity = new Float64Array(candidates.length);
  const keptIdentifiers = new Set<string>();
  const redundant = (i: number, kept: number): boolean => {
    const similarity = similarities[kept][i];
    const candidate = candidates[i];
    if (candidate.identifiers.some((identifier) => !keptIdentifiers.has(identifier)))
      return similarity >= VERBATIM;
    if (similarity >= threshold) return true;
    if (candidate.distinct.size < 3) return false;
    let shared = 0;
    for (const term of candidate.distinct) if (candidates[kept].distinct.has(term)) shared++;
    return shared / candidate.distinct.size >= containmentThreshold;
  };

  const lineLength = (line: number, members: readonly number[]): number => {
    if (members.length === 0) return 0;
    let total = 1 + prefixes[line].length + 1; // "\n" + prefix + " "
    members.forEach((index, position) => {
      total += candidates[index].text.length;
      if (position > 0) {
        const adjacent = candidates[index].sentence === candidates[members[position - 1]].sentence + 1;
        total += adjacent ? 1 : GAP.length;
      }
    });
    return total;
  };

  while (open.size > 0) {
    let best = -1;
    let bestValue = -Infinity;
    for (const i of open) {
      const value = lambda * (scores[i] / topScore) - (1 - lambda) * maxSimilarity[i];
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    open.delete(best);
    const line = candidates[best].line;
    const members = kept.get(line) ?? [];
    const withBest = [...members, best].sort((a, b) => a - b);
    const grown = length - lineLength(line, members) + lineLength(line, withBest);
    if (grown > maxChars) continue; // does not fit; a shorter one still may
    kept.set(line, withBest);
    chosen.push(best);
    length = grown;
    for (const identifier of candidates[best].identifiers) keptIdentifiers.add(identifier);
    for (const i of open) {
      if (redundant(i, best))
        open.delete(i); // says nothing the kept sentence does not
      else if (similarities[best][i] > maxSimilarity[i]) maxSimilarity[i] = similarities[best][i];
    }
  }

  const parts = [fullHeader];
  for (const line of [...kept.keys()].sort((a, b) => a - b)) {
    const members = kept.get(line) ?? [];
    let body = '';
    members.forEach((index, position) => {
      if (position > 0) {
        const adjacent = candidates[index].sentence === candidates[members[position - 1]].sentence + 1;
        body += adjacent ? ' ' : GAP;
      }
      body += candidates[index].text;
    });
    parts.push(`${prefixes[line]} ${body}`);
  }
  const picks = chosen
    .sort((a, b) => a - b)
    .map((index) => ({
      line: lines[candidates[index].line]!.origin,
      sentence: candidates[index].sentence,
      text: candidates[index].text,
      score: scores[index],
    }));
  return { text: parts.join('\n'), header: fullHeader, picks, candidates: candidates.length };
}
