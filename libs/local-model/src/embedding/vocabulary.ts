import { hashCodeUnits, hashString } from './hashing';

/**
 * Word → row lookup over the model file's vocabulary blob, without a JS Map of 341k strings:
 * an open-addressing (linear probing) table of Int32 row numbers, sized to the next power of
 * two ≥ 2.5 × N (load ≤ 0.4; 1,048,576 slots = 4 MB for 341k words), built at load in a few
 * tens of milliseconds. A lookup hashes the token's UTF-16 code units and compares them with
 * the blob in place; it allocates nothing.
 */
export class Vocabulary {
  private readonly table: Int32Array;
  private readonly mask: number;

  constructor(
    private readonly offsets: Uint32Array,
    private readonly chars: Uint16Array,
  ) {
    const n = offsets.length - 1;
    let capacity = 1024;
    while (capacity < n * 2.5) capacity *= 2;
    this.mask = capacity - 1;
    this.table = new Int32Array(capacity).fill(-1);
    for (let i = 0; i < n; i++) {
      let slot = hashCodeUnits(chars, offsets[i], offsets[i + 1]) & this.mask;
      while (this.table[slot] !== -1) {
        if (this.equalsRow(this.table[slot], chars, offsets[i], offsets[i + 1])) break; // duplicate: keep the first
        slot = (slot + 1) & this.mask;
      }
      if (this.table[slot] === -1) this.table[slot] = i;
    }
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  /** The row of `token`, or -1 when it is not in the vocabulary. */
  indexOf(token: string): number {
    const { table, mask, offsets, chars } = this;
    let slot = hashString(token) & mask;
    for (;;) {
      const row = table[slot];
      if (row === -1) return -1;
      const start = offsets[row];
      if (offsets[row + 1] - start === token.length) {
        let i = 0;
        while (i < token.length && chars[start + i] === token.charCodeAt(i)) i++;
        if (i === token.length) return row;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The word at `row` (for diagnostics; allocates a string). */
  word(row: number): string {
    return String.fromCharCode(...this.chars.subarray(this.offsets[row], this.offsets[row + 1]));
  }

  private equalsRow(row: number, units: Uint16Array, start: number, end: number): boolean {
    const s = this.offsets[row];
    if (this.offsets[row + 1] - s !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.chars[s + i] !== units[start + i]) return false;
    return true;
  }
}
