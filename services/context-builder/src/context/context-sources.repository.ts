import { Injectable } from '@nestjs/common';
import type {
  AgentProfileInput,
  CompactionInput,
  RecentMessageInput,
  SceneInput,
  SceneNoteInput,
  SkillInput,
  StickyFactInput,
  WorkspaceDocumentInput,
} from '@engram/context';
import type { EntityManager } from '@engram/store';
import type { ConversationRef } from './context-request';
import type { AgentRow } from '../agents/agent-profile.repository';

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
  readonly skills: SkillInput[];
  readonly recent: RecentMessageInput[];
  readonly compaction: CompactionInput | null;
}

/** At most this many sticky facts are read; the budget keeps the most important anyway. */
const MAX_STICKY_FACTS = 500;

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
      conversation: { id: string; agent: string; model: string | null } | null;
    }> = await manager.query(
      `SELECT (SELECT to_jsonb(a) FROM (SELECT name, personality, job, user_name, tools, scene_memory, model FROM agents WHERE agent = $1) a) AS profile,
              EXISTS (SELECT 1 FROM conversations WHERE agent = $1) AS has_conversations,
              (SELECT to_jsonb(c) FROM (SELECT id::text, agent, model FROM conversations
                 WHERE ($2::bigint IS NOT NULL AND id = $2::bigint) OR ($3::text IS NOT NULL AND agent = $1 AND session_key = $3)) c) AS conversation`,
      [agent, ref && 'id' in ref ? ref.id : null, ref && 'sessionKey' in ref ? ref.sessionKey : null],
    );
    const p = row!.profile;
    const known = p !== null || row!.has_conversations;
    return {
      agent: known
        ? {
            agent,
            name: p?.name ?? null,
            personality: p?.personality ?? null,
            job: p?.job ?? null,
            userName: p?.user_name ?? null,
            tools: p?.tools ?? [],
            sceneMemory: p?.scene_memory ?? false,
            model: p?.model ?? null,
          }
        : null,
      conversation: row!.conversation,
      conversationFound: !(ref && 'id' in ref) || row!.conversation !== null,
    };
  }

  async conversationSources(
    manager: EntityManager,
    input: { agent: string; conversationId: string | null; today: string; recentLimit: number },
  ): Promise<ConversationSources> {
    const { agent, conversationId, today, recentLimit } = input;
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
        `SELECT id::text, content, importance, valid_from FROM facts
        WHERE agent = $1 AND lifetime = 'sticky' AND valid_to IS NULL
        ORDER BY importance DESC, valid_from DESC, id LIMIT ${MAX_STICKY_FACTS}`,
        [agent],
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
    const recent: Array<{
      id: string;
      role: RecentMessageInput['role'];
      content: string;
      tool_name: string | null;
      created_at: Date;
    }> =
      conversationId && recentLimit > 0
        ? await manager.query(
            // Newest first along the conversation-order index, then turned around.
            `SELECT id::text, role, content, tool_name, created_at FROM messages
              WHERE conversation_id = $1 AND compacted_at IS NULL
              ORDER BY created_at DESC, stream_seq DESC, position DESC, id DESC LIMIT $2`,
            [conversationId, recentLimit],
          )
        : [];
    const compactions: Array<{
      id: string;
      content: string;
      earliest_at: Date | null;
      latest_at: Date | null;
    }> = conversationId
      ? await manager.query(
          `SELECT id::text, content, earliest_at, latest_at FROM compactions WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1`,
          [conversationId],
        )
      : [];
    const compaction = compactions[0];
    return {
      workspace,
      stickyFacts: facts.map((f) => ({
        id: f.id,
        content: f.content,
        importance: f.importance,
        validFrom: f.valid_from,
      })),
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

  /** Scene memory as the store holds it so far (the patrol fills it). */
  async scene(manager: EntityManager, agent: string, today: string): Promise<SceneInput> {
    const notes: Array<{ id: string; kind: string; content: string; day: string | null }> =
      await manager.query(
        `SELECT id::text, kind, content, day::text AS day FROM agent_notes
        WHERE agent = $1
          AND (kind IN ('think', 'partner_rule', 'preference', 'relationship', 'map', 'knowledge')
               OR (kind = 'note' AND read_at IS NULL)
               OR (kind = 'diary' AND day > $2::date - 7))
        ORDER BY kind, day NULLS FIRST, created_at, id`,
        [agent, today],
      );
    const nodes: Array<{ id: string; title: string | null; content: string }> = await manager.query(
      `SELECT id::text, title, content FROM memory_nodes WHERE agent = $1
        ORDER BY last_activated_at DESC NULLS LAST, id DESC LIMIT 5`,
      [agent],
    );
    const of = (kind: string): SceneNoteInput[] =>
      notes.filter((n) => n.kind === kind).map(({ id, content, day }) => ({ id, content, day }));
    return {
      thinkNotes: of('think'),
      partnerRules: of('partner_rule'),
      preferences: of('preference'),
      relationships: of('relationship'),
      map: of('map'),
      unreadNotes: of('note'),
      knowledge: of('knowledge'),
      diary: of('diary'),
      nodes,
    };
  }
}
