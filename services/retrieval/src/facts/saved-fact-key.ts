import { createHash } from 'node:crypto';

/**
 * The natural key (origin_key) of a fact saved through memory_save: the agent and the
 * content, normalised (NFKC, case-folded, whitespace collapsed), so a retried save —
 * or the same save sent twice — finds the fact it made instead of adding another.
 */
export function savedFactKey(agent: string, content: string): string {
  const normalised = content.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return `saved:${agent}:${createHash('sha256').update(normalised).digest('base64url')}`;
}

/**
 * The key of the fact saved after `previousFactId` (same agent, same content) was closed
 * or expired: saying it again starts a new fact, while the old one keeps its history.
 */
export function resavedFactKey(baseKey: string, previousFactId: string): string {
  return `${baseKey}:after:${previousFactId}`;
}

/** The natural key of a fact saved with the caller's idempotency key: the agent and that key. */
export function keyedFactKey(agent: string, key: string): string {
  return `key:${agent}:${key}`;
}
