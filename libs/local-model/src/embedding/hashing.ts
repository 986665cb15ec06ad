/**
 * Deterministic 32-bit hashing over UTF-16 code units (integer arithmetic only, so the same
 * string gives the same hash in every process on every machine): FNV-1a, finished with
 * MurmurHash3's fmix32 so that the low bits used for table slots are well mixed.
 */

export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** One FNV-1a step. */
export function fnvStep(hash: number, codeUnit: number): number {
  return Math.imul(hash ^ codeUnit, FNV_PRIME);
}

/** MurmurHash3 fmix32 finaliser; returns an unsigned 32-bit integer. */
export function fmix32(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hashString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = fnvStep(h, s.charCodeAt(i));
  return fmix32(h);
}

export function hashCodeUnits(units: Uint16Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = fnvStep(h, units[i]);
  return fmix32(h);
}

/**
 * Adds the pseudo-random vector of `seed` (uniform in [-1, 1) per component, from a
 * SplitMix-style counter generator) times `scale` to `out`.
 */
export function addHashedVector(out: Float64Array, seed: number, scale: number): void {
  let s = seed | 0;
  for (let d = 0; d < out.length; d++) {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    out[d] += scale * ((z | 0) / 2147483648);
  }
}
