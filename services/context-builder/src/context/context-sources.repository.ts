import { Injectable } from '@nestjs/common';
import type {
  AgentProfileInput,
  BeingNoteInput,
  CompactionInput,
  RecentFactInput,
  RecentMessageInput,
  SceneInput,
  SkillInput,
  StickyFactInput,
  StoredSceneInput,
  WorkspaceDocumentInput,
} from '@engram/context';
import { throughMillisecond } from '@engram/contracts';
import {
  factInForce,
  factInForceAsOf,
  type AgentRow,
  type CompactionRow,
  type DiaryRow,
  type EntityManager,
  type MemoryNodeRow,
  type NoteRow,
  type PartnerRuleRow,
  type RelationshipRow,
  type SoulRow,
  type ThinkNoteRow,
  type UserPreferenceRow,
} from '@engram/store';
import type { ConversationRef } from './context-request';

export interface AgentAndConversation {
  /** Null when the agent has neither a profile nor a conversation: unknown. */
  readonly agent: (AgentProfileInput & { readonly model: string | null }) | null;
  /** Null when the request names no conversation, or a session not started yet. */
  readonly conversation: {
    readonly id: string;
    readonly agent: string;
    readonly model: string | null;
  } | null;
  /** False when the request named a conversation id that does not exist. */
  readonly conversationFound: boolean;
}

export interface ConversationSources {
  readonly workspace: WorkspaceDocumentInput[];
  readonly stickyFacts: StickyFactInput[];
  readonly recentFacts: RecentFactInput[];
  readonly skills: SkillInput[];
  readonly recent: RecentMessageInput[];
  readonly compaction: CompactionInput | null;
}

/** At most this many sticky facts are read; the budget keeps the most important anyway. */
const MAX_STICKY_FACTS = 500;
/** At most this many of the agent's other facts, the newest, are read for layer 4; its share keeps what fits. */
const MAX_RECENT_FACTS = 200;
/** At most this many think notes, rules, preferences or relationships go into the persona. */
const MAX_PERSONA_ITEMS = 200;
/** At most this many unread notes, and as many pieces of knowledge, the newest, go into the snapshot. */
const MAX_SNAPSHOT_NOTES = 200;
/** The scenes block holds the most recently activated nodes, this many. */
const RECENT_SCENES = 5;

/** A fact (`facts f`) in force now, or, as of a past moment ($2), as it was then. */
const factInForceThen = (asOf: boolean) => (asOf ? factInForceAsOf('f', '$2') : factInForce('f'));
/**
 * A scene node (`m`) none of whose dates (`when`: "YYYY-MM-DD" or {date}) is after the day $3; a
 * date the being wrote as a label of its own ("Day7") places nothing, so it excludes nothing.
 */
const SCENE_DATED_BY_3 = `NOT EXISTS (
  SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(m.scene -> 'when') = 'array' THEN m.scene -> 'when' ELSE '[]'::jsonb END) w,
       LATERAL (SELECT CASE jsonb_typeof(w) WHEN 'string' THEN w #>> '{}' ELSE w ->> 'date' END AS day) d
   WHERE d.day ~ '^\\d{4}-\\d{2}-\\d{2}' AND left(d.day, 10) > $3)`;

/** When compaction $4 (none: never) marked its messages compacted, to the microsecond. */
const COMPACTED_BY_4 = `coalesce((SELECT created_at FROM compactions WHERE id = $4::bigint), '-infinity')`;

/** What a prompt is built from, read under the caller's tenant in one transaction. */
@Injectable()
export class ContextSourcesRepository {
  async agentAndConversation(
    manager: EntityManager,
    agent: string,
    ref: ConversationRef,
  ): Promise<AgentAndConversation> {
    const [row]: Array<{
      profile: Pick<
        AgentRow,
        'name' | 'personality' | 'job' | 'user_name' | 'tools' | 'scene_memory' | 'model'
      > | null;
      has_conversations: boolean;
      is_being: boolean;
      conversation: { id: string; agent: string; model: string | null } | null;
    }> = await manager.query(
      `SELECT (SELECT to_jsonb(a) FROM (SELECT name, personality, job, user_name, tools, scene_memory, model FROM agents WHERE agent = $1) a) AS profile,
              EXISTS (SELECT 1 FROM conversations WHERE agent = $1) AS has_conversations,
              EXISTS (SELECT 1 FROM beings WHERE agent = $1) AS is_being,
              (SELECT to_jsonb(c) FROM (SELECT id::text, agent, model FROM conversations
                 WHERE ($2::bigint IS NOT NULL AND id = $2::bigint) OR ($3::text IS NOT NULL AND agent = $1 AND session_key = $3)) c) AS conversation`,
      [agent, ref && 'id' in ref ? ref.id : null, ref && 'sessionKey' in ref ? ref.sessionKey : null],
    );
    const p = row!.profile;
    // A being (a row in beings) has scene memory whatever its profile says.
    const known = p !== null || row!.has_conversations || row!.is_being;
    return {
      agent: known
        ? {
            agent,
            name: p?.name ?? null,
            personality: p?.personality ?? null,
            job: p?.job ?? null,
            userName: p?.user_name ?? null,
            tools: p?.tools ?? [],
            sceneMemory: (p?.scene_memory ?? false) || row!.is_being,
            model: p?.model ?? null,
          }
        : null,
      conversation: row!.conversation,
      conversationFound: !(ref && 'id' in ref) || row!.conversation !== null,
    };
  }

  /**
   * The conversation's layers and the agent's documents, facts and skills. With `asOf` (a prompt
   * for a past moment) nothing said after it: sticky and other facts in force at it, the latest compaction
   * of messages said by then, and the messages said by then that it does not cover. Profile,
   * documents and skills are read as they stand: the store keeps no earlier version of them.
   */
  async conversationSources(
    manager: EntityManager,
    input: {
      agent: string;
      conversationId: string | null;
      today: string;
      asOf: Date | null;
      recentLimit: number;
    },
  ): Promise<ConversationSources> {
    const { agent, conversationId, today, recentLimit } = input;
    const asOf = input.asOf ? throughMillisecond(input.asOf) : null;
    const workspace: Array<{
      name: string;
      kind: WorkspaceDocumentInput['kind'];
      day: string | null;
      content: string;
    }> = await manager.query(
      `SELECT name, kind, day::text AS day, content FROM workspace_documents
        WHERE agent = $1 AND (kind <> 'daily' OR day = $2::date) ORDER BY name`,
      [agent, today],
    );
    const facts: Array<{ id: string; content: string; importance: number; valid_from: Date }> =
      await manager.query(
        `SELECT f.id::text, f.content, f.importance, f.valid_from FROM facts f
        WHERE f.agent = $1 AND f.lifetime = 'sticky' AND ${factInForceThen(asOf !== null)}
        ORDER BY f.importance DESC, f.valid_from DESC, f.id LIMIT ${MAX_STICKY_FACTS}`,
        asOf ? [agent, asOf] : [agent],
      );
    const others: Array<{ id: string; content: string; valid_from: Date }> = await manager.query(
      `SELECT f.id::text, f.content, f.valid_from FROM facts f
        WHERE f.agent = $1 AND f.lifetime <> 'sticky' AND ${factInForceThen(asOf !== null)}
        ORDER BY f.valid_from DESC, f.id DESC LIMIT ${MAX_RECENT_FACTS}`,
      asOf ? [agent, asOf] : [agent],
    );
    const skills: Array<{
      name: string;
      description: string | null;
      keywords: string[];
      patterns: string[];
      body: string;
    }> = await manager.query(
      `SELECT name, description, keywords, patterns, body FROM skills WHERE agent = $1 ORDER BY name`,
      [agent],
    );
    // Compactions roll up: each covers every message compacted before it, and its step marks
    // its messages compacted in its own transaction (compacted_at = its created_at).
    const compactions: Array<Pick<CompactionRow, 'id' | 'content' | 'earliest_at' | 'latest_at'>> =
      conversationId
        ? await manager.query(
            `SELECT id::text, content, earliest_at, latest_at FROM compactions
            WHERE conversation_id = $1 ${asOf ? 'AND latest_at <= $2' : ''} ORDER BY id DESC LIMIT 1`,
            asOf ? [conversationId, asOf] : [conversationId],
          )
        : [];
    const compaction = compactions[0];
    // Newest first along the conversation-order index, then turned around. As of a past moment,
    // a message compacted by a later step than the compaction shown is still recent then.
    const recent: Array<{
      id: string;
      role: RecentMessageInput['role'];
      content: string;
      tool_name: string | null;
      created_at: Date;
    }> =
      conversationId && recentLimit > 0
        ? await manager.query(
            `SELECT id::text, role, content, tool_name, created_at FROM messages
              WHERE conversation_id = $1
                AND ${asOf ? `created_at <= $3 AND (compacted_at IS NULL OR compacted_at > ${COMPACTED_BY_4})` : 'compacted_at IS NULL'}
              ORDER BY created_at DESC, stream_seq DESC, position DESC, id DESC LIMIT $2`,
            asOf
              ? [conversationId, recentLimit, asOf, compaction?.id ?? null]
              : [conversationId, recentLimit],
          )
        : [];
    return {
      workspace,
      stickyFacts: facts.map((f) => ({
        id: f.id,
        content: f.content,
        importance: f.importance,
        validFrom: f.valid_from,
      })),
      recentFacts: others.map((f) => ({ id: f.id, content: f.content, validFrom: f.valid_from })),
      skills,
      recent: recent.reverse().map((m) => ({
        id: m.id,
        role: m.role,
        content: m.content,
        toolName: m.tool_name,
        createdAt: m.created_at,
      })),
      compaction: compaction
        ? {
            id: compaction.id,
            content: compaction.content,
            earliestAt: compaction.earliest_at,
            latestAt: compaction.latest_at,
          }
        : null,
    };
  }

  /**
   * Being memory as the prompt shows it: the soul, think notes in force, enabled partner rules,
   * preferences, relationships and the clusters with their active nodes (persona, 1-A); unread
   * notes, knowledge and the diary of the 7 days up to `today` (snapshot, 1-B); the 5 most
   * recently activated nodes that are not dead (scenes, 2-B). Every list has a fixed order, so
   * the same store gives the same prompt. With `asOf`, the snapshot holds the notes written by
   * then and unread then, and the scenes those last activated by then and dated no later than
   * `today`; the persona is who the being is now (souls, preferences and relationships are
   * replaced in place: no earlier version is kept to show).
   */
  async scene(manager: EntityManager, agent: string, today: string, asOf: Date | null): Promise<SceneInput> {
    const at = asOf ? throughMillisecond(asOf) : null;
    const [soul]: Array<
      Pick<SoulRow, 'personality' | 'voice' | 'values' | 'backstory' | 'inner_world' | 'examples'>
    > = await manager.query(
      `SELECT personality, voice, "values", backstory, inner_world, examples FROM souls WHERE agent = $1`,
      [agent],
    );
    const thinkNotes: Array<Pick<ThinkNoteRow, 'id' | 'content'>> = await manager.query(
      `SELECT id::text, content FROM think_notes WHERE agent = $1 AND superseded_at IS NULL
        ORDER BY created_at, id LIMIT ${MAX_PERSONA_ITEMS}`,
      [agent],
    );
    const partnerRules: Array<Pick<PartnerRuleRow, 'id' | 'rule'>> = await manager.query(
      `SELECT id::text, rule FROM partner_rules WHERE agent = $1 AND enabled
        ORDER BY created_at, id LIMIT ${MAX_PERSONA_ITEMS}`,
      [agent],
    );
    const preferences: Array<Pick<UserPreferenceRow, 'key' | 'value'>> = await manager.query(
      `SELECT key, value FROM user_preferences WHERE agent = $1 ORDER BY key LIMIT ${MAX_PERSONA_ITEMS}`,
      [agent],
    );
    const relationships: Array<Pick<RelationshipRow, 'person' | 'relation' | 'notes'>> = await manager.query(
      `SELECT person, relation, notes FROM relationships WHERE agent = $1 ORDER BY person LIMIT ${MAX_PERSONA_ITEMS}`,
      [agent],
    );
    const clusters: Array<{
      id: string;
      name: string;
      root: 'business' | 'private' | null;
      parent_id: string;
      active: number;
    }> = await manager.query(
      `SELECT c.id::text, c.name, c.root, c.parent_id::text,
              (SELECT count(*)::int FROM memory_nodes m
                WHERE m.agent = $1 AND m.cluster_id = c.id AND m.status = 'active') AS active
         FROM clusters c WHERE c.agent = $1 ORDER BY c.id`,
      [agent],
    );
    // The newest of each kind, shown oldest first.
    // Of the kinds it selects: no scene notes.
    const notes: Array<
      Pick<NoteRow, 'id' | 'kind' | 'content' | 'due_at'> & { readonly kind: BeingNoteInput['kind'] }
    > = await manager.query(
      `SELECT * FROM (
         (SELECT id::text, kind, content, due_at, created_at, id AS n FROM notes
           WHERE agent = $1 AND kind IN ('note', 'todo', 'reminder')
             AND ${at ? 'created_at <= $2 AND (read_at IS NULL OR read_at > $2)' : 'read_at IS NULL'}
           ORDER BY created_at DESC, id DESC LIMIT ${MAX_SNAPSHOT_NOTES})
         UNION ALL
         (SELECT id::text, kind, content, due_at, created_at, id AS n FROM notes
           WHERE agent = $1 AND kind = 'knowledge' ${at ? 'AND created_at <= $2' : ''}
           ORDER BY created_at DESC, id DESC LIMIT ${MAX_SNAPSHOT_NOTES})
       ) t ORDER BY created_at, n`,
      at ? [agent, at] : [agent],
    );
    const diary: Array<Pick<DiaryRow, 'day' | 'content'>> = await manager.query(
      `SELECT day::text AS day, content FROM diary
        WHERE agent = $1 AND day > $2::date - 7 AND day <= $2::date ORDER BY day`,
      [agent, today],
    );
    // A node activated again after asOf cannot be placed then (only its last activation is kept).
    const nodes: Array<
      Pick<MemoryNodeRow, 'id' | 'scene' | 'feeling'> & { readonly scene: StoredSceneInput }
    > = await manager.query(
      `SELECT id::text, scene, feeling FROM memory_nodes m
        WHERE agent = $1 AND last_activated IS NOT NULL AND status <> 'dead' AND absorbed_into IS NULL
          ${at ? `AND last_activated <= $2 AND ${SCENE_DATED_BY_3}` : ''}
        ORDER BY last_activated DESC, id DESC LIMIT ${RECENT_SCENES}`,
      at ? [agent, at, today] : [agent],
    );
    const note = (n: (typeof notes)[number]): BeingNoteInput => ({
      id: n.id,
      kind: n.kind,
      content: n.content,
      dueAt: n.due_at,
    });
    return {
      soul: soul
        ? {
            personality: soul.personality,
            voice: soul.voice,
            values: soul.values,
            backstory: soul.backstory,
            innerWorld: soul.inner_world,
            examples: soul.examples,
          }
        : null,
      thinkNotes,
      partnerRules,
      preferences,
      relationships,
      clusters: clusters.map((c) => ({
        id: c.id,
        name: c.name,
        root: c.root,
        parentId: c.parent_id,
        activeNodes: c.active,
      })),
      unreadNotes: notes.filter((n) => n.kind !== 'knowledge').map(note),
      knowledge: notes.filter((n) => n.kind === 'knowledge').map(note),
      diary,
      nodes,
    };
  }
}
