/**
 * BM25 over a message together with the turns around it. A turn in a conversation
 * is often unreadable alone ("Yes, last Friday!"), so a message is scored as a
 * small document made of itself and its neighbours, the neighbours' words counting
 * for less — except a question right before it, whose words its answer inherits in
 * full.
 */
export const BM25_K1 = 1.2;
/** Chat turns vary in length without saying more or less: weak length normalisation. */
export const BM25_B = 0.3;

export const NEIGHBOUR_WEIGHTS = {
  /** The turn right before, when it asked a question: this message may be its answer. */
  precedingQuestion: 1,
  /** The turns right before and after. */
  adjacent: 0.35,
  /** Two turns away. */
  second: 0.3,
} as const;

/** Robertson–Spärck Jones idf, never negative. */
export function inverseDocumentFrequency(documentFrequency: number, documents: number): number {
  const n = Math.max(documents, documentFrequency);
  return Math.log(1 + (n - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One text in a scoring window: which query terms it contains (bit i = term i), its length in tokens, its weight. */
export interface WindowPart {
  readonly matched: number;
  readonly length: number;
  readonly weight: number;
}

/**
 * BM25 of a window: term frequencies and length are the weighted sums over its parts
 * (presence per part: chat turns rarely repeat a word), the average length that of a
 * window of average parts.
 */
export function windowScore(
  parts: readonly WindowPart[],
  idfs: readonly number[],
  skip: number,
  averageLength: number,
): number {
  let length = 0;
  let weights = 0;
  for (const p of parts) {
    length += p.weight * p.length;
    weights += p.weight;
  }
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / Math.max(1e-9, averageLength * weights));
  let score = 0;
  for (let t = 0; t < idfs.length; t++) {
    const bit = 1 << t;
    if (skip & bit) continue;
    let tf = 0;
    for (const p of parts) if (p.matched & bit) tf += p.weight;
    if (tf > 0) score += (idfs[t]! * tf * (BM25_K1 + 1)) / (tf + norm);
  }
  return score;
}
