import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ShutdownBudget } from '@engram/platform';
import { Events, MsgIds, timestampFromDate } from '@engram/contracts';
import { errorMessage, eventEntry, Outbox } from '@engram/messaging';
import { actAsTenant, TenantTransactions } from '@engram/store';

/** How long what searches returned gathers before it goes into the outbox, and how much at most. */
const FLUSH_AFTER_MS = 250;
const FLUSH_AT_REFS = 5_000;

interface PendingAccess {
  readonly refs: string[];
  at: Date;
}

/**
 * Announces what searches returned on mem.access.recorded without making a search wait:
 * refs gather per tenant for a quarter of a second, then one small transaction puts one
 * event per tenant into the outbox (the access consumer bumps the statistics from it).
 * The transaction does not wait for the disk (synchronous_commit off): a crash loses at
 * most the last moments' access counts — statistics, never an answer or a memory.
 */
@Injectable()
export class AccessRecorder implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AccessRecorder.name);
  private pending = new Map<string, PendingAccess>();
  private refsPending = 0;
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly outbox: Outbox,
    private readonly shutdown: ShutdownBudget,
  ) {}

  /** Records that a search of the tenant returned these refs (a ref returned twice counts twice). */
  record(tenantId: string, refs: readonly string[], at: Date): void {
    if (refs.length === 0) return;
    const access = this.pending.get(tenantId) ?? { refs: [], at };
    access.refs.push(...refs);
    if (at > access.at) access.at = at;
    this.pending.set(tenantId, access);
    this.refsPending += refs.length;
    if (this.refsPending >= FLUSH_AT_REFS) this.flushSoon(0);
    else this.flushSoon(FLUSH_AFTER_MS);
  }

  /** Everything recorded so far, into the outbox. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    this.refsPending = 0;
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  /** The last counts are written if Postgres answers within the shutdown's budget (they are statistics). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.shutdown.within(
      'writing the last access counts',
      this.flush(),
      this.shutdown.drainReserveMs(),
    );
  }

  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private async write(batch: ReadonlyMap<string, PendingAccess>): Promise<void> {
    if (batch.size === 0) return;
    try {
      await this.transactions.runAcrossTenants(async (manager) => {
        await manager.query(`SET LOCAL synchronous_commit = off`);
        for (const [tenantId, access] of batch) {
          await actAsTenant(manager, tenantId);
          const eventId = randomUUID();
          await this.outbox.add(manager, tenantId, [
            eventEntry(
              Events.accessRecorded,
              tenantId,
              { tenantId, refs: access.refs, accessedAt: timestampFromDate(access.at), eventId },
              { msgId: MsgIds.accessRecorded(eventId) },
            ),
          ]);
        }
      });
    } catch (error) {
      const refs = [...batch.values()].reduce((n, a) => n + a.refs.length, 0);
      this.logger.warn(`access of ${refs} items not recorded: ${errorMessage(error)}`);
    }
  }
}
