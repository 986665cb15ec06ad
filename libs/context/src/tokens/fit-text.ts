import type { TokenCounter } from './token-counter';

export interface FittedText {
  readonly text: string;
  readonly tokens: number;
  readonly truncated: boolean;
}

const MARKER = (kept: number, total: number) => `\n[… truncated: ${kept} of ${total} tokens kept …]\n`;

/**
 * The text whole when it fits, else its head and tail around a marker, within
 * maxTokens (null when even the marker does not fit). Head and tail both: a document's
 * title and its newest lines are what a reader most needs.
 */
export function fitText(text: string, maxTokens: number, counter: TokenCounter): FittedText | null {
  const total = counter.count(text);
  if (total <= maxTokens) return { text, tokens: total, truncated: false };
  const fits = (keep: number): FittedText | null => {
    const head = text.slice(0, Math.ceil(keep * 0.7));
    const tail = keep - head.length > 0 ? text.slice(text.length - (keep - head.length)) : '';
    const candidate = `${head}${MARKER(0, total)}${tail}`;
    const tokens = counter.count(candidate);
    return tokens <= maxTokens ? { text: candidate, tokens, truncated: true } : null;
  };
  // Binary search on kept characters: counting is monotone enough in practice, and the
  // final check below guarantees the bound.
  let lo = 0;
  let hi = text.length;
  let best = fits(0);
  if (!best) return null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const fitted = fits(mid);
    if (fitted) {
      best = fitted;
      lo = mid;
    } else hi = mid - 1;
  }
  const keptTokens = Math.max(0, best.tokens - counter.count(MARKER(0, total)));
  const labelled = best.text.replace(MARKER(0, total), MARKER(keptTokens, total));
  const labelledTokens = counter.count(labelled);
  return labelledTokens <= maxTokens ? { text: labelled, tokens: labelledTokens, truncated: true } : best;
}
