/**
 * Sparse TF-IDF vectors, their cosine similarities and LexRank centrality
 * (Erkan & Radev 2004, continuous variant): the unsupervised core of the
 * extractive summariser.
 */

/** A unit-length sparse vector: term → weight. */
export type SparseVector = Map<string, number>;

/**
 * TF-IDF vectors for a set of documents (here: sentences), each normalised to unit
 * length. tf is sublinear (1 + ln count); idf is ln(1 + N / df), positive even for
 * a term every document shares. A document without terms gets an empty vector.
 */
export function tfidfVectors(documents: readonly (readonly string[])[]): SparseVector[] {
  const df = new Map<string, number>();
  for (const terms of documents) {
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = documents.length;
  return documents.map((terms) => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(1 + n / (df.get(term) ?? 1));
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [term, weight] of vector) vector.set(term, weight / norm);
    return vector;
  });
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += weight * other;
  }
  return dot;
}

/**
 * All pairwise similarities, as one dense row per vector (the diagonal is 0).
 * Built through an inverted index, so only pairs sharing a term cost anything.
 */
export function similarityMatrix(vectors: readonly SparseVector[]): Float64Array[] {
  const n = vectors.length;
  const rows = Array.from({ length: n }, () => new Float64Array(n));
  const postings = new Map<string, { doc: number; weight: number }[]>();
  vectors.forEach((vector, doc) => {
    for (const [term, weight] of vector) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, weight });
    }
  });
  for (const list of postings.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const product = list[i].weight * list[j].weight;
        rows[list[i].doc][list[j].doc] += product;
        rows[list[j].doc][list[i].doc] += product;
      }
    }
  }
  return rows;
}

/**
 * LexRank: PageRank over the similarity graph (edge weight = cosine, rows
 * normalised). Returns one score per node, averaging 1 (so 1 = typical). A node
 * with no edges only gets the teleport share. Deterministic: fixed damping, a
 * fixed iteration cap and a convergence threshold.
 */
export function lexRank(
  similarities: readonly Float64Array[],
  damping = 0.85,
  maxIterations = 100,
): number[] {
  const n = similarities.length;
  if (n === 0) return [];
  const rowSums = similarities.map((row) => row.reduce((sum, value) => sum + value, 0));
  let rank = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (rowSums[i] <= 0) {
        dangling += rank[i];
        continue;
      }
      const share = rank[i] / rowSums[i];
      const row = similarities[i];
      for (let j = 0; j < n; j++) if (row[j] > 0) next[j] += share * row[j];
    }
    let delta = 0;
    for (let j = 0; j < n; j++) {
      next[j] = (1 - damping) / n + damping * (next[j] + dangling / n);
      delta += Math.abs(next[j] - rank[j]);
    }
    rank = next;
    if (delta < 1e-10) break;
  }
  return Array.from(rank, (value) => value * n);
}
