import { PROMPT_RESERVE_TOKENS, summaryBudget } from './compaction-policy';

describe('summaryBudget', () => {
  it('leaves room for the prompt and answer in the window', () => {
    expect(
      summaryBudget({ leafMessages: 40, leafTokens: 4000, fanOut: 8, windowTokens: 8192 }).inputTokens,
    ).toBe(8192 - PROMPT_RESERVE_TOKENS);
  });

  it('bounds summaries so that fan-out of them fit one parent call', () => {
    const policy = { leafMessages: 40, leafTokens: 4000, fanOut: 8, windowTokens: 8192 };
    const { inputTokens, maxChars } = summaryBudget(policy);
    expect(policy.fanOut * (maxChars / 4 + 12)).toBeLessThanOrEqual(inputTokens);
  });

  it('never asks for more than 4,000 characters, nor fewer than 200', () => {
    expect(
      summaryBudget({ leafMessages: 40, leafTokens: 4000, fanOut: 2, windowTokens: 128_000 }).maxChars,
    ).toBe(4000);
    expect(
      summaryBudget({ leafMessages: 40, leafTokens: 4000, fanOut: 64, windowTokens: 2048 }).maxChars,
    ).toBe(200);
  });
});
