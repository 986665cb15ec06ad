import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cosineSimilarity as cos, defaultModelPath, LocalEmbedder } from './local-embedder';
import { LOCAL_EMBEDDING_MODEL_ID } from './model-id';

/**
 * Quality and determinism of the built-in embedder, on the real binary (built by
 * `npx nx run local-model:assets`, which `npm test` runs through the build).
 */

const MODEL_PATH = defaultModelPath();

function loadModel(): LocalEmbedder {
  if (!existsSync(MODEL_PATH)) {
    throw new Error(
      `The embedding model binary ${MODEL_PATH} is missing: build it with \`npx nx run local-model:assets\` ` +
        '(or `npm run build`) before running these tests.',
    );
  }
  return LocalEmbedder.load(MODEL_PATH);
}

const bytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('LocalEmbedder (GloVe 100-d + SIF, real binary)', () => {
  let model: LocalEmbedder;
  const sim = (a: string, b: string): number => {
    const [x, y] = model.embed([a, b]);
    return cos(x, y);
  };

  beforeAll(() => {
    model = loadModel();
  });

  it('describes itself', () => {
    expect(model.modelId).toBe(LOCAL_EMBEDDING_MODEL_ID);
    expect(model.dimensions).toBe(100);
    expect(model.vocabularySize).toBe(341_479);
    expect(model.word(0)).toBe('the');
  });

  it.each([
    ['king', 'queen', 'carrot'],
    ['coffee', 'tea', 'democracy'],
    ['doctor', 'nurse', 'guitar'],
    ['paris', 'france', 'banana'],
    ['car', 'truck', 'poetry'],
    ['happy', 'glad', 'concrete'],
  ])('scores related words closer: %s ~ %s vs %s', (a, related, unrelated) => {
    const r = sim(a, related);
    const u = sim(a, unrelated);
    expect(r).toBeGreaterThan(u + 0.2);
    expect(r).toBeGreaterThan(0.4);
  });

  it.each([
    [
      'I love drinking espresso in the morning',
      'Coffee is my favourite breakfast drink',
      'The parliament passed a new tax law',
    ],
    [
      'My daughter starts school next week',
      'Our kid begins first grade on Monday',
      'The server needs a new disk',
    ],
    [
      'The laptop keeps crashing after the update',
      'My computer freezes since installing the patch',
      'We went hiking in the mountains',
    ],
    ["I'm allergic to peanuts", 'Nuts give me a severe allergic reaction', 'The orchestra played a symphony'],
    [
      'The database query is very slow',
      'SQL performance on the orders table is bad',
      'She adopted a golden retriever puppy',
    ],
  ])('scores related sentences closer: "%s"', (anchor, related, unrelated) => {
    const r = sim(anchor, related);
    const u = sim(anchor, unrelated);
    expect(r).toBeGreaterThan(u + 0.2);
  });

  it('gives the same input a bitwise-identical vector, across calls, instances and batches', () => {
    const text = 'Deploy the zorblaxian build to kubernetes at 10:30, don’t forget the café!';
    const a = model.embed([text])[0];
    const b = model.embed(['something else first', text, 'and after'])[1];
    const c = loadModel().embed([text])[0];
    expect(bytes(b).equals(bytes(a))).toBe(true);
    expect(bytes(c).equals(bytes(a))).toBe(true);
  });

  it('returns for a batch exactly what it returns for each text alone, in order', () => {
    const texts = [
      'The cat is sleeping on the sofa',
      '',
      'getUserName returned 1,000 items',
      'Ünïcödé naïve café — 東京タワー',
      'The cat is sleeping on the sofa',
    ];
    const batch = model.embed(texts);
    const reversed = model.embed([...texts].reverse()).reverse();
    expect(batch).toHaveLength(texts.length);
    texts.forEach((t, i) => {
      expect(bytes(batch[i]).equals(bytes(model.embedOne(t)))).toBe(true);
      expect(bytes(reversed[i]).equals(bytes(batch[i]))).toBe(true);
    });
  });

  it('rejects what is not a string instead of embedding "undefined"', () => {
    expect(() => model.embed([undefined as unknown as string])).toThrow(TypeError);
  });

  it('returns unit vectors of the model width', () => {
    for (const t of ['a', 'the', 'Hello world', 'qwxzptlk', '42', 'x'.repeat(500), 'I love it!', '...', '']) {
      const v = model.embedOne(t);
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(100);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-5);
      expect(v.every(Number.isFinite)).toBe(true);
    }
  });

  it('embeds unknown words deterministically, from their character n-grams', () => {
    expect(model.hasWord('zorblaxian')).toBe(false);
    expect(model.hasWord('kubernetes')).toBe(false);
    const fresh = loadModel(); // another instance: no shared cache
    expect(bytes(fresh.embedOne('zorblaxian')).equals(bytes(model.embedOne('zorblaxian')))).toBe(true);
    // Sharing n-grams (a typo) makes unknown words close; unrelated unknown words are not.
    expect(sim('kubernetes', 'kubernets')).toBeGreaterThan(0.5);
    expect(Math.abs(sim('kubernetes', 'zorblaxian'))).toBeLessThan(0.3);
    // Texts with unknown words stay close to themselves and to their variants.
    const a = 'The zorblaxian engineers repaired the quantoflux reactor';
    expect(sim(a, a)).toBeCloseTo(1, 6);
    expect(sim(a, 'Zorblaxian engineers repaired a quantoflux reactor yesterday')).toBeGreaterThan(0.8);
    expect(sim(a, 'My grandmother bakes apple pie on Sundays')).toBeLessThan(0.3);
  });

  it('pins its output to its model id (change the vectors, bump LOCAL_EMBEDDING_MODEL_ID)', () => {
    const texts = [
      'I love drinking espresso in the morning',
      "Don't deploy on Fridays: the U.S. e-mail server's getUserName call returns 1,000 rows.",
      'zorblaxian quantoflux 7731',
      'Ünïcödé naïve café — 東京タワー',
      '',
    ];
    const h = createHash('sha256');
    for (const v of model.embed(texts)) h.update(bytes(v));
    // The vectors for LOCAL_EMBEDDING_MODEL_ID, on every machine. If this fails, the algorithm,
    // the tokenizer or the data changed: bump the id's version (stored vectors must be re-embedded)
    // and update the pins here.
    expect({ modelId: model.modelId, sha256: h.digest('hex') }).toEqual({
      modelId: 'engram-local-glove-sif-100d-v1',
      sha256: '853d86c36407b42e424155087d9c0b87547c373c52b2cd55c0c78ce09471bfba',
    });
  });

  it('embeds an empty or punctuation-only text as the fixed common-component vector, similar to nothing', () => {
    const empty = model.embedOne('');
    for (const t of ['   ', '?!...', '— … ---', '"()"'])
      expect(bytes(model.embedOne(t)).equals(bytes(empty))).toBe(true);
    expect(Math.abs(norm(empty) - 1)).toBeLessThan(1e-6);
    for (const t of ['The cat is sleeping on the sofa', 'zorblaxian', '42']) {
      expect(Math.abs(cos(empty, model.embedOne(t)))).toBeLessThan(1e-5);
    }
  });

  it('treats case, typographic apostrophes and Latin accents as GloVe does (lower-cased, plain)', () => {
    const v = (t: string): Buffer => bytes(model.embedOne(t));
    expect(v('COFFEE Is Great').equals(v('coffee is great'))).toBe(true);
    expect(v('I don’t know').equals(v("I don't know"))).toBe(true);
    expect(v('Café au lait').equals(v('cafe au lait'))).toBe(true);
    expect(model.tokens("We can't go, it's 3 o'clock — e-mail the U.S. office!")).toEqual([
      'we',
      'can',
      'not',
      'go',
      'it',
      'three',
      'clock',
      'e-mail',
      'the',
      'us',
      'office',
    ]);
  });
});
