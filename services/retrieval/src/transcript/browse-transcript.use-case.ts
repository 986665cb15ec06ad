import { Injectable } from '@nestjs/common';
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import {
  decodeCursor,
  encodeCursor,
  timestampDate,
  timestampFromDate,
  type BrowseRequest,
  type BrowseResponseSchema,
  type MessageInitShape,
  type PageDirection,
  type TranscriptPosition,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import {
  TranscriptReaderRepository,
  type PageStart,
  type TranscriptRow,
  type TranscriptScope,
} from './transcript-reader.repository';

export const DEFAULT_PAGE = 50;

type BrowseResponseInit = MessageInitShape<typeof BrowseResponseSchema>;

/**
 * memory_browse: the transcript in order, a page at a time, through a conversation
 * or across an agent's conversations; from the start or the end, from a point in
 * time, around a message, or on from a cursor. The request passed its rules
 * (libs/contracts browseRules): what is left to refuse is what only the store knows.
 */
@Injectable()
export class BrowseTranscriptUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly reader: TranscriptReaderRepository,
  ) {}

  async browse(tenantId: string, request: BrowseRequest): Promise<BrowseResponseInit> {
    const limit = request.limit === 0 ? DEFAULT_PAGE : request.limit;
    const direction = (request.direction || 'forward') as PageDirection;
    const cursor = request.cursor ? decodeCursor(request.cursor) : null;

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

  /** The conversation named (by id, or by agent + session key), or else the agent's whole transcript. */
  private async scopeOf(
    manager: Parameters<TranscriptReaderRepository['page']>[0],
    request: BrowseRequest,
  ): Promise<TranscriptScope> {
    if (request.conversationId || request.sessionKey) {
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
    return { agent: request.agent };
  }
}

/** A page in chronological order; cursors lead to the older and the newer neighbouring pages when they exist. */
function respond(rows: TranscriptRow[], exist: { before: boolean; after: boolean }): BrowseResponseInit {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    messages: rows.map((r) => ({
      id: r.id,
      conversationId: r.conversationId,
      agent: r.agent,
      turnId: r.turnId,
      role: r.role,
      author: r.author ?? '',
      content: r.content,
      rawContent: r.rawContent ?? '',
      contentSynthesised: r.contentSynthesised,
      toolName: r.toolName ?? '',
      toolCallId: r.toolCallId ?? '',
      toolArgs: jsonValue(r.toolArgs),
      toolResult: jsonValue(r.toolResult),
      metadata: r.metadata as never,
      createdAt: timestampFromDate(r.createdAt),
    })),
    nextCursor: last && exist.after ? encodeCursor({ ...positionOf(last), direction: 'forward' }) : '',
    prevCursor: first && exist.before ? encodeCursor({ ...positionOf(first), direction: 'backward' }) : '',
  };
}

function positionOf(row: TranscriptRow): TranscriptPosition {
  return {
    createdAt: row.createdAtText,
    streamSeq: row.streamSeq,
    position: row.position,
    id: row.id,
  };
}

function jsonValue(value: unknown) {
  return value === null || value === undefined ? undefined : fromJson(ValueSchema, value as JsonValue);
}
