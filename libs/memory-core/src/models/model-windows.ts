/**
 * Context windows of current models, matched by the longest name prefix, with the
 * provider's own prefix ("openai/", "anthropic/", …) ignored. A model that is not in
 * the table is taken for a small local model.
 */
export const UNKNOWN_MODEL_WINDOW_TOKENS = 8192;

/** Share of a model's window a prompt may fill; the rest is left for the answer. */
export const PROMPT_CEILING_SHARE = 0.75;

/** Byte-pair encodings a tokenizer library can count exactly. */
export type KnownEncoding = 'o200k_base' | 'cl100k_base';

export interface ModelWindow {
  readonly prefix: string;
  readonly windowTokens: number;
  /** Set when the model's tokenizer is public, so tokens can be counted exactly. */
  readonly encoding?: KnownEncoding;
}

const MODEL_WINDOWS: readonly ModelWindow[] = [
  { prefix: 'gpt-5', windowTokens: 400_000, encoding: 'o200k_base' },
  { prefix: 'gpt-4.1', windowTokens: 1_047_576, encoding: 'o200k_base' },
  { prefix: 'gpt-4o', windowTokens: 128_000, encoding: 'o200k_base' },
  { prefix: 'gpt-4-turbo', windowTokens: 128_000, encoding: 'cl100k_base' },
  { prefix: 'gpt-4', windowTokens: 8192, encoding: 'cl100k_base' },
  { prefix: 'gpt-3.5-turbo', windowTokens: 16_385, encoding: 'cl100k_base' },
  { prefix: 'o1', windowTokens: 200_000, encoding: 'o200k_base' },
  { prefix: 'o3', windowTokens: 200_000, encoding: 'o200k_base' },
  { prefix: 'o4-mini', windowTokens: 200_000, encoding: 'o200k_base' },
  { prefix: 'gpt-oss', windowTokens: 131_072, encoding: 'o200k_base' },
  { prefix: 'claude-sonnet-4', windowTokens: 200_000 },
  { prefix: 'claude-opus-4', windowTokens: 200_000 },
  { prefix: 'claude-haiku-4', windowTokens: 200_000 },
  { prefix: 'claude-3', windowTokens: 200_000 },
  { prefix: 'claude', windowTokens: 200_000 },
  { prefix: 'gemini-2', windowTokens: 1_048_576 },
  { prefix: 'gemini-1.5-pro', windowTokens: 2_097_152 },
  { prefix: 'gemini-1.5', windowTokens: 1_048_576 },
  { prefix: 'gemini', windowTokens: 1_048_576 },
  { prefix: 'mistral-large', windowTokens: 128_000 },
  { prefix: 'mistral-small', windowTokens: 128_000 },
  { prefix: 'deepseek', windowTokens: 128_000 },
  { prefix: 'llama-3.1', windowTokens: 128_000 },
  { prefix: 'llama3.1', windowTokens: 128_000 },
  { prefix: 'llama-3.2', windowTokens: 128_000 },
  { prefix: 'llama3.2', windowTokens: 128_000 },
  { prefix: 'llama-3.3', windowTokens: 128_000 },
  { prefix: 'llama3.3', windowTokens: 128_000 },
  { prefix: 'llama-4', windowTokens: 1_000_000 },
  { prefix: 'qwen3', windowTokens: 32_768 },
  { prefix: 'qwen2.5', windowTokens: 32_768 },
];

/** The table entry for a model, or the unknown-model default. */
export function modelWindowOf(model: string | null | undefined): ModelWindow {
  const name = (model ?? '').trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  let best: ModelWindow | undefined;
  for (const entry of MODEL_WINDOWS) {
    if (bare.startsWith(entry.prefix) && (!best || entry.prefix.length > best.prefix.length)) best = entry;
  }
  return best ?? { prefix: '', windowTokens: UNKNOWN_MODEL_WINDOW_TOKENS };
}

/** The most tokens a prompt for this model may hold: 75 % of its window. */
export function promptCeilingOf(model: string | null | undefined): number {
  return Math.floor(modelWindowOf(model).windowTokens * PROMPT_CEILING_SHARE);
}
