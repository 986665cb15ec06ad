import { Injectable, Logger } from '@nestjs/common';
import {
  eraseScopeOf,
  Events,
  MsgIds,
  timestampFromDate,
  type EraseRequest,
  type EraseResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { Outbox, StreamEraser, type StreamErasure, type StreamsErased } from '@engram/messaging';
import { failpoint } from '@engram/platform';
import { TenantTransactions } from '@engram/store';
import { ErasureRepository, type Erasure } from './erasure.repository';

type EraseResponseInit = MessageInitShape<typeof EraseResponseSchema>;

/** Who asked, as the audit entry records it: the caller's principal on one line, else "nats" (a NATS client that said nothing). */
export function requesterOf(principal: string): string {
  return principal.replace(/\p{Cc}/gu, '').trim() || 'nats';
}

const NOTHING: StreamsErased = { turns: 0, deadLetters: 0 };
const plus = (a: StreamsErased, b: StreamsErased): StreamsErased => ({
  turns: a.turns + b.turns,
  deadLetters: a.deadLetters + b.deadLetters,
});

/**
 * mem.rpc.erase: removes a scope's messages and everything derived from them, the one exception
 * to the immutable transcript. Each step can be run again: the streams (what still waits in
 * TURNS is gone before ingest could store it again), one Postgres transaction (`engram_erase`:
 * the rows and the audit entry, with `mem.memory.erased` in its outbox, on which every retrieval
 * replica drops the tenant's search index), the streams again (what arrived meanwhile), then the
 * entry is marked done. A crash after the transaction leaves its entry unfinished; the next erase
 * of the tenant, whatever its scope, finishes it first.
 */
@Injectable()
export class EraseMemoryUseCase {
  private readonly logger = new Logger(EraseMemoryUseCase.name);

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly erasures: ErasureRepository,
    private readonly streams: StreamEraser,
    private readonly outbox: Outbox,
  ) {}

  async erase(tenantId: string, request: EraseRequest, principal: string): Promise<EraseResponseInit> {
    const requestedBy = requesterOf(principal);
    await this.finishUnfinished(tenantId);
    const scope = eraseScopeOf(request);
    const conversationId = scope === 'conversation' ? request.conversationId : null;
    const agent = scope === 'agent' ? request.agent : null;

    const found = conversationId
      ? await this.transactions.run(tenantId, (m) => this.erasures.conversation(m, conversationId))
      : null;
    const before = await this.streams.erase({
      tenantId,
      scope,
      agent: agent ?? found?.agent ?? '',
      conversationId: conversationId ?? '',
      sessionKey: found?.sessionKey ?? '',
    });

    const erasure = await this.transactions.run(tenantId, async (manager) => {
      const erased = await this.erasures.erase(manager, { agent, conversationId }, requestedBy);
      await this.outbox.announce(
        manager,
        Events.memoryErased,
        tenantId,
        {
          tenantId,
          erasureId: erased.id,
          scope,
          agent: erased.agent ?? '',
          conversationId: conversationId ?? '',
          erasedAt: timestampFromDate(erased.erasedAt),
        },
        { msgId: MsgIds.memoryErased(tenantId, erased.id) },
      );
      return erased;
    });
    failpoint('erase.after-commit', tenantId);
    const streams = await this.finishStreams(tenantId, erasure, before);
    this.logger.log(
      `erased ${scope} of tenant ${tenantId} for ${requestedBy} (erasure ${erasure.id}): ${JSON.stringify({ ...erasure.counts, ...streams })}`,
    );
    return {
      erasureId: erasure.id,
      scope,
      agent: erasure.agent ?? '',
      conversationId: conversationId ?? '',
      requestedBy,
      erasedAt: timestampFromDate(erasure.erasedAt),
      erased: Object.fromEntries(
        Object.entries({ ...erasure.counts, ...streams }).map(([kind, n]) => [kind, BigInt(n ?? 0)]),
      ),
    };
  }

  /** Erases the streams of entries a crash left unfinished. */
  private async finishUnfinished(tenantId: string): Promise<void> {
    const unfinished = await this.transactions.run(tenantId, (m) => this.erasures.unfinished(m));
    for (const entry of unfinished) {
      const streams = await this.finishStreams(tenantId, entry);
      this.logger.log(`finished erasure ${entry.id} of tenant ${tenantId}: ${JSON.stringify(streams)}`);
    }
  }

  /** Erases the entry's scope from the streams and marks it done with what went (and `earlier`, a first pass). */
  private async finishStreams(
    tenantId: string,
    entry: Pick<Erasure, 'id' | 'scope' | 'agent' | 'conversationId' | 'sessionKey'>,
    earlier: StreamsErased = NOTHING,
  ): Promise<StreamsErased> {
    const target: StreamErasure = {
      tenantId,
      scope: entry.scope,
      agent: entry.agent ?? '',
      conversationId: entry.conversationId ?? '',
      sessionKey: entry.sessionKey ?? '',
    };
    const now = await this.streams.erase(target);
    const erased = plus(earlier, now);
    await this.transactions.run(tenantId, (m) => this.erasures.streamsErased(m, entry.id, erased));
    return erased;
  }
}
