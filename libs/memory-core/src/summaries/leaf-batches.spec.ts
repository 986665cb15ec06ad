import { LINE_OVERHEAD_TOKENS } from './summary-tree-policy';
import { leafBatches } from './leaf-batches';

const policy = {
  leafMessages: 4,
  leafTokens: 1000,
  fanOut: 4,
  windowTokens: 100_000,
  summaryTokens: [7000, 14000, 20000] as const,
};
const messages = (...tokens: number[]) => tokens.map((t, i) => ({ id: String(i + 1), tokens: t }));
const ids = (batches: Array<Array<{ id: string }>>) => batches.map((b) => b.map((m) => m.id));

describe('leafBatches', () => {
  it('writes nothing below both thresholds', () => {
    expect(leafBatches(messages(10, 10, 10), policy)).toEqual([]);
    expect(leafBatches([], policy)).toEqual([]);
  });

  it('cuts full batches of leafMessages, oldest first, and leaves the rest waiting', () => {
    expect(ids(leafBatches(messages(1, 1, 1, 1, 1, 1, 1, 1, 1, 1), policy))).toEqual([
      ['1', '2', '3', '4'],
      ['5', '6', '7', '8'],
    ]);
  });

  it('cuts a batch before the message that would pass the token threshold', () => {
    const tokens = 500 - LINE_OVERHEAD_TOKENS;
    // Two fill 1,000 tokens exactly; the third waits.
    expect(ids(leafBatches(messages(tokens, tokens, tokens), policy))).toEqual([['1', '2']]);
    // 300 + 300 + 600 passes 1,000: the third starts the next batch.
    expect(ids(leafBatches(messages(300, 300, 600, 10), policy))).toEqual([['1', '2']]);
  });

  it('gives a message larger than any batch a leaf of its own, whole', () => {
    expect(ids(leafBatches(messages(5, 5000, 5), policy))).toEqual([['1'], ['2']]);
  });

  it('keeps every batch within the model window', () => {
    const small = { ...policy, leafTokens: 1_000_000, leafMessages: 1000, windowTokens: 1024 + 100 };
    const batches = leafBatches(messages(...Array<number>(20).fill(20)), small);
    for (const batch of batches)
      expect(batch.reduce((n, m) => n + m.tokens + LINE_OVERHEAD_TOKENS, 0)).toBeLessThanOrEqual(100);
    expect(batches.flat().length).toBeGreaterThan(0);
  });

  it('covers the messages it batches exactly once, in order', () => {
    const many = messages(...Array.from({ length: 2000 }, (_, i) => (i * 37) % 90));
    const batches = leafBatches(many, {
      leafMessages: 40,
      leafTokens: 1500,
      fanOut: 8,
      windowTokens: 8192,
      summaryTokens: [7000, 14000, 20000],
    });
    const flat = batches.flat().map((m) => Number(m.id));
    expect(flat).toEqual(Array.from({ length: flat.length }, (_, i) => i + 1));
    expect(flat.length).toBeGreaterThan(1900);
  });
});
