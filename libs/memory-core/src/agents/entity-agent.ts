import { createHash } from 'node:crypto';
import { isValidToken } from '@engram/contracts';

/**
 * The Engram agent whose memory a foreign entity is (a mem0 user_id or agent_id, a Letta agent,
 * a Zep user): an id that is a valid agent name as it is, any other its safe characters plus 8
 * hex digits of its sha256 — deterministic, so the mem0-compatible API and the importers put the
 * same entity's memories in the same place.
 */
export function entityAgent(id: string): string {
  if (isValidToken(id)) return id;
  const readable = id.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 55);
  return `${readable}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
}
