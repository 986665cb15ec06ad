import { Injectable } from '@nestjs/common';
import type { PageDirection, TranscriptPosition } from '@engram/contracts';
import type { EntityManager, MessageRow } from '@engram/store';

/** Whose messages a page holds: one conversation, or every conversation of an agent. */
export type TranscriptScope = { readonly conversationId: string } | { readonly agent: string };

/** A message of a transcript page, with its time as Postgres spells it (a cursor's exact key). */
export interface TranscriptRow extends Pick<
  MessageRow,
  | 'id'
  | 'conversationId'
  | 'agent'
  | 'turnId'
  | 'role'
  | 'author'
  | 'content'
  | 'rawContent'
  | 'contentSynthesised'
  | 'toolName'
  | 'toolCallId'
  | 'toolArgs'
  | 'toolResult'
  | 'metadata'
  | 'createdAt'
  | 'streamSeq'
  | 'position'
> {
  readonly createdAtText: string;
}

export type PageStart =
  | { readonly kind: 'edge' }
  | { readonly kind: 'time'; readonly at: Date }
  | { readonly kind: 'after'; readonly position: TranscriptPosition; readonly inclusive: boolean };

const ORDER_KEY = '(m.created_at, m.stream_seq, m.position, m.id)';

/** Reads of the transcript in its one canonical order, under the caller's tenant. */
@Injectable()
export class TranscriptReaderRepository {
  async findConversationId(
    manager: EntityManager,
    by: { id: string } | { agent: string; sessionKey: string },
  ): Promise<string | null> {
    const rows: Array<{ id: string }> =
      'id' in by
        ? await manager.query('SELECT id FROM conversations WHERE id = $1', [by.id])
        : await manager.query('SELECT id FROM conversations WHERE agent = $1 AND session_key = $2', [
            by.agent,
            by.sessionKey,
          ]);
    return rows[0] ? String(rows[0].id) : null;
  }

  async positionOf(
    manager: EntityManager,
    scope: TranscriptScope,
    messageId: string,
  ): Promise<TranscriptPosition | null> {
    const [filter, value] = scopeFilter(scope);
    const rows: Array<{ created_at_text: string; stream_seq: string; position: number; id: string }> =
      await manager.query(
        `SELECT m.created_at::text AS created_at_text, m.stream_seq, m.position, m.id FROM messages m WHERE m.id = $1 AND ${filter.replace('$1', '$2')}`,
        [messageId, value],
      );
    const row = rows[0];
    return row
      ? {
          createdAt: row.created_at_text,
          streamSeq: String(row.stream_seq),
          position: row.position,
          id: String(row.id),
        }
      : null;
  }

  /** Up to `limit` rows from `start` in `direction`, returned in that direction's order. */
  async page(
    manager: EntityManager,
    scope: TranscriptScope,
    start: PageStart,
    direction: PageDirection,
    limit: number,
  ): Promise<TranscriptRow[]> {
    const [filter, value] = scopeFilter(scope);
    const forward = direction === 'forward';
    const params: unknown[] = [value, limit];
    let bound = '';
    if (start.kind === 'time') {
      params.push(start.at.toISOString());
      bound = `AND m.created_at ${forward ? '>=' : '<='} $3`;
    } else if (start.kind === 'after') {
      const p = start.position;
      params.push(p.createdAt, p.streamSeq, p.position, p.id);
      const op = forward ? (start.inclusive ? '>=' : '>') : start.inclusive ? '<=' : '<';
      bound = `AND ${ORDER_KEY} ${op} ($3::timestamptz, $4::bigint, $5::int, $6::bigint)`;
    }
    const order = forward ? 'ASC' : 'DESC';
    return manager.query(
      `SELECT m.id::text, m.conversation_id::text AS "conversationId", m.agent, m.turn_id AS "turnId", m.role, m.author,
              m.content, m.raw_content AS "rawContent", m.content_synthesised AS "contentSynthesised",
              m.tool_name AS "toolName", m.tool_call_id AS "toolCallId", m.tool_args AS "toolArgs",
              m.tool_result AS "toolResult", m.metadata, m.created_at AS "createdAt",
              m.created_at::text AS "createdAtText", m.stream_seq::text AS "streamSeq", m.position
         FROM messages m
        WHERE ${filter} ${bound}
        ORDER BY m.created_at ${order}, m.stream_seq ${order}, m.position ${order}, m.id ${order}
        LIMIT $2`,
      params,
    );
  }
}

function scopeFilter(scope: TranscriptScope): [string, string] {
  return 'conversationId' in scope
    ? ['m.conversation_id = $1', scope.conversationId]
    : ['m.agent = $1', scope.agent];
}
