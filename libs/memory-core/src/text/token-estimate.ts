/** Tokens a text costs when no tokenizer is configured: 4 characters ≈ 1 token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
