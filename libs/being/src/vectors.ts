/** Cosine similarity of two vectors of one width; 0 when either is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The mean of vectors of one width; null for none. */
export function meanVector(vectors: ReadonlyArray<ArrayLike<number>>): number[] | null {
  const first = vectors[0];
  if (first === undefined) return null;
  const mean = new Array<number>(first.length).fill(0);
  for (const v of vectors) {
    if (v.length !== first.length) throw new Error(`vectors of ${first.length} and ${v.length} dimensions`);
    for (let i = 0; i < v.length; i++) mean[i]! += v[i]! / vectors.length;
  }
  return mean;
}

/** pgvector's text form of a vector: `[0.1,0.2]`. */
export function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.from(vector).join(',')}]`;
}

/** A vector from pgvector's text form. */
export function parseVector(text: string): number[] {
  return text === '[]' ? [] : text.slice(1, -1).split(',').map(Number);
}
