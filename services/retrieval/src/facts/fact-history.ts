import {
  optionalTimestamp,
  timestampFromDate,
  type FactHistorySchema,
  type FactSchema,
  type FactVersionSchema,
  type MessageInitShape,
} from '@engram/contracts';
import type { FactRecord } from './fact-records.repository';

type FactInit = MessageInitShape<typeof FactSchema>;
type FactVersionInit = MessageInitShape<typeof FactVersionSchema>;
type FactHistoryInit = MessageInitShape<typeof FactHistorySchema>;

/** A fact row as the Fact message (absent times stay absent; empty strings for what it does not name). */
export function factMessage(fact: FactRecord): FactInit {
  return {
    id: fact.id,
    agent: fact.agent,
    content: fact.content,
    category: fact.category,
    lifetime: fact.lifetime,
    importance: fact.importance,
    origin: fact.origin,
    conversationId: fact.conversationId ?? '',
    sourceMessageIds: [...fact.sourceMessageIds],
    validFrom: timestampFromDate(fact.validFrom),
    validTo: optionalTimestamp(fact.validTo),
    supersededBy: fact.supersededBy ?? '',
    forgetReason: fact.forgetReason ?? '',
    createdAt: timestampFromDate(fact.createdAt),
    updatedAt: timestampFromDate(fact.updatedAt),
    expiresAt: optionalTimestamp(fact.expiresAt),
    accessCount: BigInt(fact.accessCount),
    lastAccessedAt: optionalTimestamp(fact.lastAccessedAt),
    firstId: fact.firstId,
    metadata: fact.metadata,
    key: fact.saveKey ?? '',
  };
}

/** Closed without a successor: forgotten (a superseded fact names the one that replaced it). */
export const isForgotten = (fact: FactRecord) => fact.validTo !== null && fact.supersededBy === null;

/**
 * A supersession chain (oldest version first, not empty) as mem0 reads a memory's history:
 * ADD for the first version, UPDATE for each version that superseded the one before it (old
 * and new text), DELETE when the last version was forgotten. Each step is dated when it was
 * stored; DELETE when the fact was forgotten.
 */
export function factHistory(chain: readonly FactRecord[]): FactHistoryInit {
  const current = chain[chain.length - 1];
  if (current === undefined) throw new Error('a fact history needs at least one version');
  const versions: FactVersionInit[] = chain.map((fact, i) => ({
    fact: factMessage(fact),
    event: i === 0 ? 'ADD' : 'UPDATE',
    oldContent: i === 0 ? '' : chain[i - 1]!.content,
    newContent: fact.content,
    at: timestampFromDate(fact.createdAt),
  }));
  if (isForgotten(current))
    versions.push({
      fact: factMessage(current),
      event: 'DELETE',
      oldContent: current.content,
      newContent: '',
      at: timestampFromDate(current.validTo!),
    });
  return { current: factMessage(current), versions };
}
