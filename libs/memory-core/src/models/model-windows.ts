/**
 * Context windows of current models, matched by the longest name prefix, with the
 * provider's own prefix ("openai/", "anthropic/", …) ignored, except where the provider
 * decides the window ("ollama/": Ollama serves every model with its own context length,
 * 8,192 tokens unless set). A model that is not in the table is taken for a small local model.
 */
export const UNKNOWN_MODEL_WINDOW_TOKENS = 8192;

/** Windows a deployment sets (MODEL_WINDOWS), by model name or prefix ("ollama/" for a provider's); they win over the table. */
export type ModelWindowOverrides = Readonly<Record<string, number>>;

const NO_OVERRIDES: ModelWindowOverrides = {};

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
  { prefix: 'ollama/', windowTokens: 8192 },
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

/** The table's entries whose tokenizer is known: where a model's encoding is looked up. */
const ENCODED_WINDOWS = MODEL_WINDOWS.filter((e) => e.encoding);

/**
 * A model's window: the deployment's setting for it if any, else the table's, else the
 * unknown-model default; its encoding is the table's whichever window wins.
 */
export function modelWindowOf(
  model: string | null | undefined,
  overrides: ModelWindowOverrides = NO_OVERRIDES,
): ModelWindow {
  const name = (model ?? '').trim().toLowerCase();
  const set = Object.entries(overrides).map(([prefix, windowTokens]) => ({
    prefix: prefix.toLowerCase(),
    windowTokens,
  }));
  const window = bestMatch(set, name) ?? bestMatch(MODEL_WINDOWS, name);
  const encoding = bestMatch(ENCODED_WINDOWS, name)?.encoding;
  return {
    prefix: window?.prefix ?? '',
    windowTokens: window?.windowTokens ?? UNKNOWN_MODEL_WINDOW_TOKENS,
    ...(encoding && { encoding }),
  };
}

/** The most tokens a prompt for this model may hold: 75 % of its window. */
export function promptCeilingOf(
  model: string | null | undefined,
  overrides: ModelWindowOverrides = NO_OVERRIDES,
): number {
  return Math.floor(modelWindowOf(model, overrides).windowTokens * PROMPT_CEILING_SHARE);
}

/**
 * The entry for a lower-cased model name: a provider's ("ollama/") matched on the whole name
 * beats a model's, matched on the name without its provider; among those, the longest prefix.
 */
function bestMatch(entries: readonly ModelWindow[], name: string): ModelWindow | undefined {
  const bare = name.slice(name.lastIndexOf('/') + 1);
  let best: ModelWindow | undefined;
  let bestRank = -1;
  for (const entry of entries) {
    const byProvider = entry.prefix.includes('/');
    if (!(byProvider ? name : bare).startsWith(entry.prefix)) continue;
    const rank = (byProvider ? 10_000 : 0) + entry.prefix.length;
    if (rank > bestRank) [best, bestRank] = [entry, rank];
  }
  return best;
}
