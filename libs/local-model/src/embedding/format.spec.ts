import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelFormatError, readModelFile, writeModelFile, type ModelHeader } from './format';
import { cosineSimilarity, LocalEmbedder } from './local-embedder';
import { LOCAL_EMBEDDING_MODEL_ID } from './model-id';
import { Vocabulary } from './vocabulary';

/** A tiny model file (3 dimensions) to test the format and the runtime without the real asset. */
function tinyModel(modelId = LOCAL_EMBEDDING_MODEL_ID): Buffer {
  const words = ['the', 'coffee', 'tea', 'tax', '\u6771\u4eac'];
  const offsets = new Uint32Array(words.length + 1);
  const chars: number[] = [];
  words.forEach((w, i) => {
    offsets[i] = chars.length;
    for (const c of w) chars.push(c.charCodeAt(0));
  });
  offsets[words.length] = chars.length;
  const header: Omit<ModelHeader, 'sections'> = {
    modelId,
    dimensions: 3,
    vocabularySize: words.length,
    source: { package: 'test', version: '0', sha256: '0' },
    sif: { a: 1e-4, probability: 'zipf-rank', harmonic: 2.28, referenceLength: 10 },
    oov: { norm: 1, weight: 1, numberWeight: 0.5 },
    builder: 'test',
  };
  return writeModelFile(header, {
    vocabOffsets: offsets,
    vocabChars: Uint16Array.from(chars),
    vectors: Int8Array.from([127, 0, 0, 0, 127, 10, 0, 120, 20, 0, -20, 127, 0, 0, 127]),
    scales: Float32Array.from([0.01, 0.02, 0.02, 0.02, 0.02]),
    weights: Float32Array.from([0.001, 0.9, 0.9, 0.9, 0.9]),
    common: Float32Array.from([1, 0, 0]),
  });
}

describe('model file format', () => {
  it('round-trips a model: header and typed-array sections', () => {
    const file = readModelFile(tinyModel());
    expect(file.header.modelId).toBe(LOCAL_EMBEDDING_MODEL_ID);
    expect(file.header.vocabularySize).toBe(5);
    expect(Array.from(file.sections.vectors.subarray(3, 6))).toEqual([0, 127, 10]);
    expect(Array.from(file.sections.common)).toEqual([1, 0, 0]);
  });

  it('reads from an unaligned buffer too', () => {
    const model = tinyModel();
    const shifted = Buffer.alloc(model.length + 1);
    model.copy(shifted, 1);
    expect(readModelFile(shifted.subarray(1)).sections.weights[1]).toBeCloseTo(0.9);
  });

  it('rejects files that are not model files, or are truncated', () => {
    expect(() => readModelFile(Buffer.from('{"not":"a model"}'))).toThrow(ModelFormatError);
    const model = tinyModel();
    expect(() => readModelFile(model.subarray(0, model.length - 8))).toThrow(/truncated|corrupt/);
  });

  it('refuses a binary built for another model id, and says how to rebuild', () => {
    expect(() => LocalEmbedder.fromBytes(tinyModel('engram-local-glove-sif-100d-v0'))).toThrow(
      /npx nx run local-model:assets/,
    );
  });

  it('says how to build a missing binary', () => {
    expect(() => LocalEmbedder.load('/nonexistent/glove.bin')).toThrow(/npx nx run local-model:assets/);
  });

  it('embeds with the tiny model: SIF sum, common component removed, unit length', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-local-model-'));
    writeFileSync(join(dir, 'tiny.bin'), tinyModel());
    const m = LocalEmbedder.load(join(dir, 'tiny.bin'));
    const [coffee, tea, tax, empty, tokyo] = m.embed(['The coffee', 'tea', 'TAX', '', '\u6771\u4eac']);
    expect(cosineSimilarity(coffee, tea)).toBeGreaterThan(0.9);
    expect(cosineSimilarity(coffee, tax)).toBeLessThan(0.2);
    expect(coffee[0]).toBeCloseTo(0, 6); // the common component (x axis) is gone
    expect(Array.from(empty)).toEqual([1, 0, 0]);
    expect(m.hasWord('\u6771\u4eac')).toBe(true); // non-ASCII words are looked up in place
    expect(cosineSimilarity(tokyo, tax)).toBeGreaterThan(0.95);
  });
});

describe('Vocabulary', () => {
  it('finds every word and nothing else', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const offsets = new Uint32Array(words.length + 1);
    let chars = '';
    words.forEach((w, i) => {
      offsets[i] = chars.length;
      chars += w;
    });
    offsets[words.length] = chars.length;
    const vocab = new Vocabulary(
      offsets,
      Uint16Array.from(chars, (c) => c.charCodeAt(0)),
    );
    expect(vocab.size).toBe(5000);
    words.forEach((w, i) => expect(vocab.indexOf(w)).toBe(i));
    expect(vocab.indexOf('w')).toBe(-1);
    expect(vocab.indexOf('nope')).toBe(-1);
    expect(vocab.indexOf('')).toBe(-1);
    expect(vocab.word(1234)).toBe(words[1234]);
  });
});
