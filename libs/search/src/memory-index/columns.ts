/** Typed-array columns that grow as rows are added: their data lives off the V8 heap. */

type TypedArray = Int32Array | Float64Array | Float32Array | Uint8Array;
type TypedArrayOf<T extends TypedArray> = { new (length: number): T };

/** A column of numbers indexed by slot; reading past the end gives the fill value. */
class Column<T extends TypedArray> {
  protected data: T;
  constructor(
    private readonly make: TypedArrayOf<T>,
    protected readonly fill: number,
  ) {
    this.data = new make(0);
  }

  get(slot: number): number {
    return slot < this.data.length ? this.data[slot]! : this.fill;
  }

  set(slot: number, value: number): void {
    if (slot >= this.data.length) this.grow(slot + 1);
    this.data[slot] = value;
  }

  get bytes(): number {
    return this.data.byteLength;
  }

  /** Gives back the room beyond `length` slots (after a load: growth leaves up to a third unused). */
  compact(length: number): void {
    if (length < this.data.length) this.data = this.data.slice(0, length) as T;
  }

  private grow(minimum: number): void {
    const next = new this.make(Math.max(minimum, 16, Math.ceil(this.data.length * 1.5)));
    if (this.fill !== 0) next.fill(this.fill);
    next.set(this.data);
    this.data = next;
  }
}

// Each column class reads with its own `get`: one shared by every kind of array sees three
// element kinds and V8 cannot specialise the load, which showed in searches' profiles.

export class Int32Column extends Column<Int32Array> {
  constructor(fill = 0) {
    super(Int32Array, fill);
  }

  override get(slot: number): number {
    return slot < this.data.length ? this.data[slot]! : this.fill;
  }
}

/** Microseconds since the epoch and other integers beyond 32 bits (exact up to 2^53); NaN for null. */
export class Float64Column extends Column<Float64Array> {
  constructor(fill = Number.NaN) {
    super(Float64Array, fill);
  }

  override get(slot: number): number {
    return slot < this.data.length ? this.data[slot]! : this.fill;
  }
}

export class Uint8Column extends Column<Uint8Array> {
  constructor() {
    super(Uint8Array, 0);
  }

  override get(slot: number): number {
    return slot < this.data.length ? this.data[slot]! : this.fill;
  }
}

/** A sorted list of slots (a posting list, a conversation's messages), growable, with sorted insertion. */
export class SlotList {
  private data = new Int32Array(4);
  length = 0;

  /** A list holding `slots`, which must be ascending and distinct. */
  static ofSorted(slots: Int32Array<ArrayBuffer>): SlotList {
    const list = new SlotList();
    list.data = slots.length > 0 ? slots : list.data;
    list.length = slots.length;
    return list;
  }

  /** Inserts `slot` in order (at the end when it is the largest, the usual case); a slot already present stays once. */
  insert(slot: number): void {
    if (this.length === 0 || this.data[this.length - 1]! < slot) {
      this.push(slot);
      return;
    }
    const at = this.lowerBound(slot);
    if (at < this.length && this.data[at] === slot) return;
    this.push(0);
    this.data.copyWithin(at + 1, at, this.length - 1);
    this.data[at] = slot;
  }

  /** Inserts `slot` before the first element that `before` orders after it (for orders other than by slot). */
  insertOrdered(slot: number, before: (a: number, b: number) => number): void {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.data[mid]!, slot) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.push(0);
    this.data.copyWithin(lo + 1, lo, this.length - 1);
    this.data[lo] = slot;
  }

  has(slot: number): boolean {
    const at = this.lowerBound(slot);
    return at < this.length && this.data[at] === slot;
  }

  /**
   * The first index at or after `from` whose slot is not below `slot` (the length when none):
   * a galloping search, so walking a long list forward with rising slots costs little per step.
   */
  seek(slot: number, from: number): number {
    let lo = from;
    let step = 1;
    let hi = from;
    while (hi < this.length && this.data[hi]! < slot) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, this.length);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid]! < slot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  at(i: number): number {
    return this.data[i]!;
  }

  indexOf(slot: number): number {
    for (let i = 0; i < this.length; i++) if (this.data[i] === slot) return i;
    return -1;
  }

  get bytes(): number {
    return this.data.byteLength;
  }

  /** Gives back the room beyond its length. */
  compact(): void {
    if (this.length < this.data.length) this.data = this.data.slice(0, Math.max(1, this.length));
  }

  private push(slot: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(Math.max(4, Math.ceil(this.data.length * 1.5)));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = slot;
  }

  private lowerBound(slot: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid]! < slot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Strings stored once and referred to by number (agents, authors, roles, conversations). */
export class Dictionary {
  private readonly numbers = new Map<string, number>();
  private readonly values: string[] = [];

  /** The number of `value`, added when new; -1 for null. */
  intern(value: string | null): number {
    if (value === null) return -1;
    let n = this.numbers.get(value);
    if (n === undefined) {
      n = this.values.length;
      this.values.push(value);
      this.numbers.set(value, n);
    }
    return n;
  }

  /** The number of `value` if known, else -2 (which no stored row carries). */
  find(value: string): number {
    return this.numbers.get(value) ?? -2;
  }

  value(n: number): string | null {
    return n < 0 ? null : this.values[n]!;
  }

  get size(): number {
    return this.values.length;
  }
}
