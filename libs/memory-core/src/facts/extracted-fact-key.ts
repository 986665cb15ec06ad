import { createHash } from 'node:crypto';

/** Content as keys compare it: NFKC, case-folded, whitespace collapsed. */
export function normalizeFactContent(content: string): string {
  return content.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The natural key (origin_key) of a fact extracted after a turn: the agent, the turn's
 * assistant message and the normalised content. A redelivered turn finds the facts it
 * already inserted instead of adding them again.
 */
export function extractedFactKey(agent: string, turnMessageId: string, content: string): string {
  return `extracted:${agent}:${turnMessageId}:${createHash('sha256').update(normalizeFactContent(content)).digest('base64url')}`;
}
