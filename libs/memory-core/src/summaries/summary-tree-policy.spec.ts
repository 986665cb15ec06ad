import { PROMPT_RESERVE_TOKENS, summaryBudget, type SummaryTreePolicy } from './summary-tree-policy';

const V5 = [7000, 14000, 20000] as const;
const policy = (windowTokens: number, fanOut = 8): SummaryTreePolicy => ({
  leafMessages: 40,
  leafTokens: 4000,
  fanOut,
  windowTokens,
  summaryTokens: V5,
});

describe('summaryBudget', () => {
  it('leaves room for the prompt and answer in the window', () => {
    expect(summaryBudget(policy(8192)).inputTokens).toBe(8192 - PROMPT_RESERVE_TOKENS);
  });

  it('bounds summaries so that fan-out of them fit one parent call, at every depth', () => {
    for (const windowTokens of [8192, 32_768, 131_072]) {
      for (const depth of [0, 1]) {
        const child = summaryBudget(policy(windowTokens), depth);
        const parent = summaryBudget(policy(windowTokens), depth + 1);
        expect(8 * (child.maxChars / 4 + 12)).toBeLessThanOrEqual(parent.inputTokens);
      }
    }
  });

  it('gives a large window the v5 budgets per depth: max_tokens, half of it for the summary', () => {
    const budgets = [0, 1, 2].map((depth) => summaryBudget(policy(131_072), depth));
    expect(budgets.map((b) => b.maxTokens)).toEqual([7000, 14000, 20000]);
    expect(budgets.map((b) => b.maxChars)).toEqual([14_000, 28_000, 40_000]);
    // The call's input and its answer fit the window together.
    for (const b of budgets) expect(b.inputTokens + b.maxTokens! + PROMPT_RESERVE_TOKENS).toBe(131_072);
  });

  it('keeps a depth within what a small window holds: no budget, at most 4,000 characters, nor fewer than 200', () => {
    const small = summaryBudget(policy(8192));
    expect(small.maxTokens).toBeUndefined();
    expect(small.maxChars).toBe(3536);
    // 32k holds the leaf's 7k budget but not the root's 20k.
    expect([0, 1, 2].map((d) => summaryBudget(policy(32_768), d).maxTokens)).toEqual([
      7000,
      14000,
      undefined,
    ]);
    expect(summaryBudget(policy(2048, 64)).maxChars).toBe(200);
  });
});
