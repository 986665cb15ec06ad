import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens, modelWindowOf, type KnownEncoding } from '@engram/memory-core';

/** Counts what a text costs in a model's prompt. */
export interface TokenCounter {
  count(text: string): number;
  /** True when the model's own tokenizer counts; false for the 4-characters estimate. */
  readonly exact: boolean;
}

const ESTIMATE: TokenCounter = { count: estimateTokens, exact: false };

const ENCODINGS: Record<KnownEncoding, typeof o200k> = { o200k_base: o200k, cl100k_base: cl100k };

// Text that looks like a special token ("<|endoftext|>") is plain text in a user's
// message, and the API counts it as such.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Exact counting when the model's tokenizer is public, the 4-characters estimate otherwise. */
export function tokenCounterFor(model: string | null | undefined): TokenCounter {
  const { encoding } = modelWindowOf(model);
  if (!encoding) return ESTIMATE;
  const encoder = ENCODINGS[encoding];
  return { count: (text) => (text.length === 0 ? 0 : encoder.countTokens(text, AS_TEXT)), exact: true };
}
