import { exactSearch, MetricKind } from 'usearch';
import { Int32Column } from './columns';

/**
 * From this many vectors on, the nearest are found by usearch's SIMD scan (exact, like the
 * JavaScript loop, several times faster); below it the loop costs less than the call.
 */
export const SIMD_SCAN_FROM = 256;

/**
 * One model's vectors of one kind of item, row by row in a growable Float32Array, each with
 * its squared norm; found nearest by an exact scan (cosine, as pgvector's `<=>`).
 */
export class VectorSet {
  private data: Float32Array;
  private norms: Float32Array;
  private readonly slotOfRow = new Int32Column(-1);
  private readonly rowOfSlot = new Int32Column(-1);
  rows = 0;

  constructor(
    readonly dimensions: number,
    capacity = 16,
  ) {
    this.data = new Float32Array(dimensions * Math.max(1, capacity));
    this.norms = new Float32Array(Math.max(1, capacity));
  }

  /** Sets the vector of `slot`, replacing the one it had. */
  put(slot: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions) return;
    let row = this.rowOfSlot.get(slot);
    if (row < 0) {
      row = this.rows++;
      if (row >= this.norms.length) this.grow();
      this.rowOfSlot.set(slot, row);
      this.slotOfRow.set(row, slot);
    }
    this.data.set(vector, row * this.dimensions);
    let norm = 0;
    for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
    this.norms[row] = norm;
  }

  has(slot: number): boolean {
    return this.rowOfSlot.get(slot) >= 0;
  }

  /** Cosine similarity of `slot`'s vector with `query` (squared norm `queryNorm`), null when it has none or either is zero. */
  cosine(slot: number, query: Float32Array, queryNorm: number): number | null {
    const row = this.rowOfSlot.get(slot);
    if (row < 0) return null;
    return this.cosineOfRow(row, query, queryNorm);
  }

  /**
   * The `k` slots most similar to `query`, most similar first (an exact scan); with `accept`,
   * the `k` most similar of the slots it accepts (the others are not compared at all); with
   * `among`, only those slots are looked at (a scope's reach: its cost, not the set's).
   */
  nearest(
    query: Float32Array,
    k: number,
    accept?: (slot: number) => boolean,
    among?: { readonly length: number; at(i: number): number },
  ): number[] {
    if (!accept && !among && this.rows >= SIMD_SCAN_FROM) return this.nearestBySimd(query, k);
    const queryNorm = squaredNorm(query);
    const best: Array<{ slot: number; similarity: number }> = [];
    const consider = (slot: number, row: number) => {
      if (accept && !accept(slot)) return;
      const similarity = this.cosineOfRow(row, query, queryNorm);
      if (similarity === null) return;
      if (best.length === k && similarity <= best[k - 1]!.similarity) return;
      let at = best.length;
      while (at > 0 && best[at - 1]!.similarity < similarity) at--;
      best.splice(at, 0, { slot, similarity });
      if (best.length > k) best.pop();
    };
    if (among)
      for (let i = 0; i < among.length; i++) {
        const slot = among.at(i);
        const row = this.rowOfSlot.get(slot);
        if (row >= 0) consider(slot, row);
      }
    else for (let row = 0; row < this.rows; row++) consider(this.slotOfRow.get(row), row);
    return best.map((b) => b.slot);
  }

  private nearestBySimd(query: Float32Array, k: number): number[] {
    if (squaredNorm(query) === 0) return [];
    const found = exactSearch(
      this.data.subarray(0, this.rows * this.dimensions),
      query,
      this.dimensions,
      Math.min(k, this.rows),
      MetricKind.Cos,
      1,
    );
    const slots: number[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const row = Number(found.keys[i]);
      // A zero vector has no direction: pgvector's distance is NaN, never among the nearest.
      if (this.norms[row] !== 0 && Number.isFinite(found.distances[i])) slots.push(this.slotOfRow.get(row));
    }
    return slots;
  }

  get bytes(): number {
    return this.data.byteLength + this.norms.byteLength + this.slotOfRow.bytes + this.rowOfSlot.bytes;
  }

  private cosineOfRow(row: number, query: Float32Array, queryNorm: number): number | null {
    const d = this.dimensions;
    const offset = row * d;
    let dot = 0;
    for (let i = 0; i < d; i++) dot += this.data[offset + i]! * query[i]!;
    const norms = this.norms[row]! * queryNorm;
    if (norms === 0) return null;
    // As pgvector: clamped to [-1, 1].
    return Math.max(-1, Math.min(1, dot / Math.sqrt(norms)));
  }

  /** Gives back the room beyond the rows held. */
  compact(): void {
    if (this.norms.length > Math.max(1, this.rows)) {
      this.data = this.data.slice(0, Math.max(1, this.rows) * this.dimensions);
      this.norms = this.norms.slice(0, Math.max(1, this.rows));
    }
    this.slotOfRow.compact(this.rows);
  }

  private grow(): void {
    const rows = Math.ceil(this.norms.length * 1.5);
    const data = new Float32Array(rows * this.dimensions);
    data.set(this.data);
    this.data = data;
    const norms = new Float32Array(rows);
    norms.set(this.norms);
    this.norms = norms;
  }
}

export function squaredNorm(vector: Float32Array): number {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  return norm;
}
