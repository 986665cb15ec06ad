import { Injectable } from '@nestjs/common';
import {
  classifyMemoryTag,
  DEFAULT_IMPORTANCE,
  expiryOf,
  findDuplicateFact,
  type FactCategory,
  type FactLifetime,
} from '@engram/memory-core';
import {
  findFactsByOriginKeys,
  insertFactOnce,
  lockFactWriters,
  openFactsSharingWords,
  renewFact,
  type EntityManager,
} from '@engram/store';

/** A fact stated by a [MEMORY:type] tag in one stored message. */
export interface TaggedFact {
  readonly agent: string;
  readonly conversationId: string;
  readonly messageId: string;
  readonly tagIndex: number;
  readonly type: string;
  readonly content: string;
  readonly statedAt: Date;
}

/** A [STATE:key] value from one stored message. */
export interface TaggedStateValue {
  readonly agent: string;
  readonly key: string;
  readonly value: string;
  readonly messageId: string;
  readonly statedAt: Date;
}

export interface RecordedFact {
  readonly id: string;
  readonly agent: string;
  readonly category: FactCategory;
  /** The message whose tag stated it. */
  readonly messageId: string;
}

/** The natural key of a tagged fact: a redelivered turn finds it instead of adding it again. */
export const tagOriginKey = (messageId: string, tagIndex: number) => `tag:${messageId}:${tagIndex}`;

/** Facts and state from memory tags, in the caller's tenant transaction. */
@Injectable()
export class TaggedMemoryRepository {
  /**
   * Stores each tagged fact unless an active fact of the same agent already says it
   * (word overlap above the threshold): then that fact's lifetime is renewed instead.
   * Per agent, writers are serialised so two replicas cannot both add the same fact.
   */
  async recordFacts(
    manager: EntityManager,
    tenantId: string,
    facts: readonly TaggedFact[],
    overlapThreshold: number,
  ): Promise<RecordedFact[]> {
    const byAgent = new Map<string, TaggedFact[]>();
    for (const fact of facts) {
      if (!byAgent.has(fact.agent)) byAgent.set(fact.agent, []);
      byAgent.get(fact.agent)!.push(fact);
    }
    const recorded: RecordedFact[] = [];
    for (const agent of [...byAgent.keys()].sort()) {
      const candidates = byAgent.get(agent)!;
      await lockFactWriters(manager, tenantId, agent);
      // Open facts in force when the earliest candidate was stated (imports may replay old turns).
      const earliest = new Date(Math.min(...candidates.map((c) => c.statedAt.getTime())));
      const active = await openFactsSharingWords(
        manager,
        agent,
        candidates.map((c) => c.content),
        earliest,
      );
      for (const fact of candidates) {
        const { category, lifetime } = classifyMemoryTag(fact.type);
        const expiresAt = expiryOf(lifetime, fact.statedAt);
        // Compared with what was in force when the fact was stated.
        const duplicate = findDuplicateFact(fact.content, fact.statedAt, active, overlapThreshold);
        if (duplicate) {
          if (expiresAt) await renewFact(manager, duplicate.id, expiresAt);
          continue;
        }
        const id = await this.insertFact(manager, tenantId, fact, category, lifetime, expiresAt);
        if (id) {
          active.push({ id, content: fact.content, expiresAt });
          recorded.push({ id, agent, category, messageId: fact.messageId });
        }
      }
    }
    return recorded;
  }

  /** Facts already recorded from these tags (for a turn stored by an earlier delivery). */
  async findRecordedFacts(manager: EntityManager, facts: readonly TaggedFact[]): Promise<RecordedFact[]> {
    const rows = await findFactsByOriginKeys(
      manager,
      facts.map((f) => tagOriginKey(f.messageId, f.tagIndex)),
    );
    return rows.map((r) => ({
      id: r.id,
      agent: r.agent,
      category: r.category,
      messageId: r.sourceMessageIds[0]!,
    }));
  }

  /** The latest statement of each key wins, also against what an older, redelivered turn says. */
  async recordState(
    manager: EntityManager,
    tenantId: string,
    values: readonly TaggedStateValue[],
  ): Promise<void> {
    const latest = new Map<string, TaggedStateValue>();
    for (const v of values) {
      const key = `${v.agent}\u0000${v.key}`;
      const seen = latest.get(key);
      if (!seen || seen.statedAt.getTime() <= v.statedAt.getTime()) latest.set(key, v);
    }
    const rows = [...latest.values()];
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO state AS s (tenant_id, agent, key, value, source_message_id, stated_at)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[])
       ON CONFLICT (tenant_id, agent, key) DO UPDATE SET
         value = excluded.value, source_message_id = excluded.source_message_id,
         stated_at = excluded.stated_at, updated_at = now()
       WHERE s.stated_at <= excluded.stated_at`,
      [
        tenantId,
        rows.map((r) => r.agent),
        rows.map((r) => r.key),
        rows.map((r) => r.value),
        rows.map((r) => r.messageId),
        rows.map((r) => r.statedAt.toISOString()),
      ],
    );
  }

  /** The tag's fact, unless an earlier delivery inserted it (null then). */
  private insertFact(
    manager: EntityManager,
    tenantId: string,
    fact: TaggedFact,
    category: FactCategory,
    lifetime: FactLifetime,
    expiresAt: Date | null,
  ): Promise<string | null> {
    return insertFactOnce(manager, tenantId, {
      agent: fact.agent,
      content: fact.content,
      category,
      lifetime,
      importance: DEFAULT_IMPORTANCE[category],
      origin: 'tag',
      originKey: tagOriginKey(fact.messageId, fact.tagIndex),
      conversationId: fact.conversationId,
      sourceMessageIds: [fact.messageId],
      validFrom: fact.statedAt,
      expiresAt,
    });
  }
}
