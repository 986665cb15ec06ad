import { Injectable } from '@nestjs/common';
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import {
  timestampDate,
  timestampFromDate,
  type BrowseRequest,
  type BrowseResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { decodeCursor, encodeCursor, type PageDirection, type TranscriptPosition } from '@engram/memory-core';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import {
  TranscriptReaderRepository,
  type PageStart,
  type TranscriptRow,
  type TranscriptScope,
} from './transcript-reader.repository';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;

type BrowseResponseInit = MessageInitShape<typeof BrowseResponseSchema>;

/**
 * memory_browse: the transcript in order, a page at a time, through a conversation
 * or across an agent's conversations; from the start or the end, from a point in
 * time, around a message, or on from a cursor.
 */
@Injectable()
export class BrowseTranscriptUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly reader: TranscriptReaderRepository,
  ) {}

  async browse(tenantId: string, request: BrowseRequest): Promise<BrowseResponseInit> {
    const limit = request.limit === 0 ? DEFAULT_PAGE : request.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw RpcError.invalidArgument(`limit must be between 1 and ${MAX_PAGE}`, { limit: request.limit });
    }
    const direction = request.direction || 'forward';
    if (direction !== 'forward' && direction !== 'backward') {
      throw RpcError.invalidArgument('direction must be "forward" or "backward"', { direction });
    }
    if (request.conversationId && !/^\d{1,19}$/.test(request.conversationId)) {
      throw RpcError.invalidArgument('conversationId is not a conversation id', {
        conversationId: request.conversationId,
      });
    }
    if (request.aroundMessageId && !/^\d{1,19}$/.test(request.aroundMessageId)) {
      throw RpcError.invalidArgument('aroundMessageId is not a message id', {
        aroundMessageId: request.aroundMessageId,
      });
    }
    const starts = [request.cursor, request.from, request.aroundMessageId].filter(Boolean).length;
    if (starts > 1) throw RpcError.invalidArgument('give at most one of cursor, from and aroundMessageId');
    const cursor = request.cursor ? decodeCursor(request.cursor) : null;
    if (request.cursor && !cursor) throw RpcError.invalidArgument('cursor is not one this service returned');

    return this.transactions.run(tenantId, async (manager) => {
      const scope = await this.scopeOf(manager, request);
      if (request.aroundMessageId) {
        const anchor = await this.reader.positionOf(manager, scope, request.aroundMessageId);
        if (!anchor) throw RpcError.notFound(`message ${request.aroundMessageId} is not in this transcript`);
        const before = await this.reader.page(
          manager,
          scope,
          { kind: 'after', position: anchor, inclusive: false },
          'backward',
          Math.floor(limit / 2) + 1,
        );
        const olderExist = before.length > Math.floor(limit / 2);
        const older = before.slice(0, Math.floor(limit / 2)).reverse();
        const after = await this.reader.page(
          manager,
          scope,
          { kind: 'after', position: anchor, inclusive: true },
          'forward',
          limit - older.length + 1,
        );
        const newerExist = after.length > limit - older.length;
        return respond([...older, ...after.slice(0, limit - older.length)], {
          before: olderExist,
          after: newerExist,
        });
      }
      const travel: PageDirection = cursor?.direction ?? direction;
      const start: PageStart = cursor
        ? { kind: 'after', position: cursor, inclusive: false }
        : request.from
          ? { kind: 'time', at: timestampDate(request.from) }
          : { kind: 'edge' };
      const rows = await this.reader.page(manager, scope, start, travel, limit + 1);
      const more = rows.length > limit;
      const page = rows.slice(0, limit);
      if (travel === 'backward') page.reverse();
      const startedInside = start.kind !== 'edge';
      return respond(
        page,
        travel === 'forward'
          ? { before: startedInside, after: more }
          : { before: more, after: startedInside },
      );
    });
  }

  private async scopeOf(
    manager: Parameters<TranscriptReaderRepository['page']>[0],
    request: BrowseRequest,
  ): Promise<TranscriptScope> {
    if (request.conversationId || request.sessionKey) {
      if (request.sessionKey && !request.agent)
        throw RpcError.invalidArgument('sessionKey needs the agent it belongs to');
      const id = await this.reader.findConversationId(
        manager,
        request.conversationId
          ? { id: request.conversationId }
          : { agent: request.agent, sessionKey: request.sessionKey },
      );
      if (!id)
        throw RpcError.notFound('no such conversation', {
          conversationId: request.conversationId,
          sessionKey: request.sessionKey,
        });
      return { conversationId: id };
    }
    if (request.agent) return { agent: request.agent };
    throw RpcError.invalidArgument('say what to browse: conversationId, agent + sessionKey, or agent');
  }
}

/** A page in chronological order; cursors lead to the older and the newer neighbouring pages when they exist. */
function respond(rows: TranscriptRow[], exist: { before: boolean; after: boolean }): BrowseResponseInit {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    messages: rows.map((r) => ({
      id: String(r.id),
      conversationId: String(r.conversation_id),
      agent: r.agent,
      turnId: r.turn_id,
      role: r.role,
      author: r.author ?? '',
      content: r.content,
      contentSynthesised: r.content_synthesised,
      toolName: r.tool_name ?? '',
      toolArgs: jsonValue(r.tool_args),
      toolResult: jsonValue(r.tool_result),
      metadata: r.metadata as never,
      createdAt: timestampFromDate(r.created_at),
    })),
    nextCursor: last && exist.after ? encodeCursor({ ...positionOf(last), direction: 'forward' }) : '',
    prevCursor: first && exist.before ? encodeCursor({ ...positionOf(first), direction: 'backward' }) : '',
  };
}

function positionOf(row: TranscriptRow): TranscriptPosition {
  return {
    createdAt: row.created_at_text,
    streamSeq: String(row.stream_seq),
    position: row.position,
    id: String(row.id),
  };
}

function jsonValue(value: unknown) {
  return value === null || value === undefined ? undefined : fromJson(ValueSchema, value as JsonValue);
}
