import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { OUTBOX_DEAD_LETTERS } from '@engram/contracts';
import { counter, failpoint, gauge, PeriodicTask, ShutdownBudget } from '@engram/platform';
import { OutboxStore, TenantTransactions, type OutboxRow } from '@engram/store';
import { SpanKind, trace } from '@engram/telemetry';
import { NatsClient } from '../connection/nats.client';
import { errorMessage } from '../consumers/error-message';
import { isDependencyFailure } from '../consumers/failure-kind';
import { retryDelayMs } from '../consumers/retry-policy';
import { DeadLetterPublisher } from '../publishing/dead-letter.publisher';
import { spanAround } from '../tracing/span-around';
import { extractTraceContext, headersOfTraceFields, injectTraceContext } from '../tracing/trace-headers';
import { OUTBOX_OPTIONS, type OutboxOptions } from './outbox.options';

/** Rows a relay takes at once, and how long they are its own before another relay may take them. */
const SWEEP_BATCH = 256;
const LEASE_MS = 30_000;
/** Rows published after their commit leave the outbox together, a moment later (one statement, off the hot path). */
const REMOVE_AFTER_MS = 100;
const REMOVE_AT_ROWS = 1000;
/** An empty outbox's backlog (the gauges) is read every this many sweeps: the table is read only to claim. */
const IDLE_BACKLOG_EVERY = 15;
/** An idle relay's sweeps thin out: the wait doubles after each sweep that found nothing, up to this many intervals. */
const IDLE_SWEEP_MAX_INTERVALS = 8;
/** Backoff of a failed publish: 1 s, doubling, at most a minute. */
const BACKOFF = { baseDelayMs: 1000, maxDelayMs: 60_000 };

const published = counter('engram_outbox_published_total', 'Outbox events published to JetStream', ['path']);
const failures = counter('engram_outbox_failures_total', 'Failed attempts to publish an outbox event', []);
const pendingGauge = gauge('engram_outbox_pending', 'Outbox events committed but not yet published', []);
const oldestGauge = gauge(
  'engram_outbox_oldest_pending_seconds',
  'Age of the oldest outbox event not yet published (0 when none)',
  [],
);

const tracer = trace.getTracer('@engram/messaging');

type Outcome = { readonly row: OutboxRow; readonly error?: unknown };

/**
 * Publishes what the outbox holds, each row under its msg id; a row JetStream stored leaves the outbox.
 * Two paths, one outcome: right after a transaction of this process commits, its rows
 * are published at once (the hot path: no polling delay); every OUTBOX_RELAY_INTERVAL_MS
 * the sweep takes due rows of any tenant and any writer (one that died, a publish that
 * failed), leased so replicas share them. A failure is retried with backoff; after
 * OUTBOX_MAX_ATTEMPTS the row goes to the dead letters with the last error (while NATS is
 * disconnected nothing is attempted, and while JetStream is down the dead letter fails too,
 * so an outage never dead-letters anything).
 * A row published twice (a crash between its publish and its removal) has one msg id: JetStream keeps one.
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  /** The sweeps: the interval, longer while idle (idleSweepDelayMs). */
  private readonly sweeps: PeriodicTask<void>;
  private published: string[] = [];
  private removal?: NodeJS.Timeout;
  private removing: Promise<void> = Promise.resolve();
  /** Sweeps since the backlog was last read, while it was empty; undefined before the first read. */
  private quietSweeps?: number;
  /** Sweeps in a row that claimed nothing with no row waiting: the next one waits longer. */
  private idleSweeps = 0;

  constructor(
    private readonly nats: NatsClient,
    private readonly store: OutboxStore,
    private readonly transactions: TenantTransactions,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly shutdown: ShutdownBudget,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
  ) {
    this.sweeps = new PeriodicTask({
      name: 'the outbox sweep',
      run: () => this.sweepDue(),
      intervalMs: () => idleSweepDelayMs(this.options.intervalMs, this.idleSweeps),
      shutdown: this.shutdown,
      onError: (error) => {
        const log = isDependencyFailure(error) ? 'debug' : 'warn';
        this.logger[log](`outbox sweep failed: ${errorMessage(error)}`);
      },
    });
  }

  onModuleInit(): void {
    this.transactions.onOutboxCommitted((rows) => this.publishCommitted(rows));
  }

  onApplicationBootstrap(): void {
    this.sweeps.start();
  }

  /**
   * Stops sweeping; a writer's own after-commit publishes still go out until NATS is drained.
   * A sweep may be waiting on a slow Postgres or on PubAcks from a NATS that is gone: what is
   * not done within the shutdown's budget is left to the next sweep of any replica.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.sweeps.stop(this.shutdown.drainReserveMs());
    await this.shutdown.within(
      'removing published outbox events',
      this.removePublished(),
      this.shutdown.drainReserveMs(),
    );
  }

  /** A writer's rows, right after its commit. What fails here is due for the sweep after the writer's grace. */
  async publishCommitted(rows: readonly OutboxRow[]): Promise<void> {
    for (const subject of new Set(rows.map((r) => r.subject))) failpoint('outbox.after-commit', subject);
    const handles = this.nats.ifConnected();
    if (!handles) return;
    try {
      const outcomes = await this.publishAll(handles.js, rows);
      for (const subject of new Set(rows.map((r) => r.subject))) failpoint('outbox.after-publish', subject);
      const sent = outcomes.filter((o) => !('error' in o));
      published.inc({ path: 'commit' }, sent.length);
      failures.inc(outcomes.length - sent.length);
      this.removeSoon(sent.map((o) => o.row.id));
      const failed = outcomes.find((o) => 'error' in o);
      if (failed) {
        this.quietSweeps = undefined; // rows wait: the gauges show them from the next sweep
        this.idleSweeps = 0;
        this.logger.warn(
          `${outcomes.length - sent.length} of ${rows.length} events not published after commit (${errorMessage(failed.error)}); the relay retries them`,
        );
      }
    } catch (error) {
      this.quietSweeps = undefined;
      this.idleSweeps = 0;
      this.logger.warn(`events committed but not published (${errorMessage(error)}); the relay retries them`);
    }
  }

  /**
   * Published rows leave the outbox together a moment later. Until then (or if this process
   * dies first) a sweep may publish one again once its writer's grace passed: the same msg id,
   * within JetStream's duplicate window, so the stream keeps one.
   */
  private removeSoon(ids: readonly string[]): void {
    this.published.push(...ids);
    if (this.published.length >= REMOVE_AT_ROWS) void this.removePublished();
    else if (!this.removal) {
      this.removal = setTimeout(() => void this.removePublished(), REMOVE_AFTER_MS);
      this.removal.unref();
    }
  }

  private removePublished(): Promise<void> {
    clearTimeout(this.removal);
    this.removal = undefined;
    const ids = this.published;
    this.published = [];
    this.removing = this.removing.then(() =>
      this.store.removeSent(ids).catch((error: unknown) => {
        this.logger.warn(
          `${ids.length} published events left in the outbox (${errorMessage(error)}); a sweep publishes them again`,
        );
      }),
    );
    return this.removing;
  }

  /** One sweep now, or the one in progress (tests; the timer's are the same): sweeps never overlap. */
  async sweep(): Promise<void> {
    await this.sweeps.runNow();
  }

  /**
   * Publishes the due rows of any tenant. The backlog gauges are read after a sweep that claimed
   * rows or found some waiting last time, and otherwise every IDLE_BACKLOG_EVERY sweeps: an idle
   * service asks Postgres one statement a sweep, not two, and sweeps less often (idleSweepDelayMs).
   */
  private async sweepDue(): Promise<void> {
    const handles = this.nats.ifConnected();
    let claimed = 0;
    if (handles) {
      for (;;) {
        const rows = await this.store.claim(SWEEP_BATCH, LEASE_MS);
        claimed += rows.length;
        if (rows.length === 0) break;
        await this.settle(handles.js, await this.publishAll(handles.js, rows));
        if (rows.length < SWEEP_BATCH || this.sweeps.stopping) break;
      }
    }
    this.idleSweeps = claimed === 0 && this.quietSweeps !== undefined ? this.idleSweeps + 1 : 0;
    if (claimed === 0 && this.quietSweeps !== undefined && ++this.quietSweeps < IDLE_BACKLOG_EVERY) return;
    const backlog = await this.store.backlog();
    this.quietSweeps = backlog.pending === 0 ? 0 : undefined;
    pendingGauge.set(backlog.pending);
    oldestGauge.set(backlog.oldest ? Math.max(0, (Date.now() - backlog.oldest.getTime()) / 1000) : 0);
  }

  private publishAll(js: JetStreamClient, rows: readonly OutboxRow[]): Promise<Outcome[]> {
    return Promise.all(
      rows.map(async (row): Promise<Outcome> => {
        try {
          await this.publishOne(js, row);
          return { row };
        } catch (error) {
          return { row, error };
        }
      }),
    );
  }

  /**
   * Publishes one row. A row announced inside a trace is published in a producer span,
   * child of the span that announced it, and the consumer's span is that span's child.
   */
  private publishOne(js: JetStreamClient, row: OutboxRow): Promise<unknown> {
    const kept = headersOfTraceFields(row);
    if (!kept) return js.publish(row.subject, row.payload, { msgID: row.msgId });
    const parent = extractTraceContext(kept);
    return tracer.startActiveSpan(
      'outbox publish',
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': row.subject,
          'messaging.message.id': row.msgId,
        },
      },
      parent,
      (span) =>
        spanAround(span, () =>
          js.publish(row.subject, row.payload, {
            msgID: row.msgId,
            // The span's context given explicitly: a process without a context manager passes it on too.
            headers: injectTraceContext(undefined, trace.setSpan(parent, span)),
          }),
        ),
    );
  }

  /** Removes what the sweep published; reschedules or dead-letters what it could not. */
  private async settle(js: JetStreamClient, outcomes: readonly Outcome[]): Promise<void> {
    const sent = outcomes.filter((o) => !('error' in o)).map((o) => o.row.id);
    published.inc({ path: 'sweep' }, sent.length);
    await this.store.removeSent(sent);
    for (const { row, error } of outcomes.filter((o) => 'error' in o)) {
      failures.inc();
      const reason = errorMessage(error);
      const retryMs = retryDelayMs(row.attempts, BACKOFF);
      if (row.attempts < this.options.maxAttempts) {
        await this.store.markFailed(row.id, reason, retryMs);
        continue;
      }
      // If JetStream itself is down the dead letter fails too, and the row waits for it.
      await this.deadLetter(js, row, reason).catch(async (deadLetterError: unknown) => {
        await this.store.markFailed(
          row.id,
          `${reason}; dead letter failed: ${errorMessage(deadLetterError)}`,
          retryMs,
        );
      });
    }
  }

  private async deadLetter(js: JetStreamClient, row: OutboxRow, reason: string): Promise<void> {
    this.logger.error(
      `outbox event ${row.msgId} on ${row.subject} not published after ${row.attempts} attempts: ${reason}`,
    );
    await this.deadLetters.publish(
      js,
      {
        stream: OUTBOX_DEAD_LETTERS.stream,
        consumer: OUTBOX_DEAD_LETTERS.consumer,
        subject: row.subject,
        sequence: Number(row.id),
        data: row.payload,
        headers: headersOfTraceFields(row),
        deliveries: row.attempts,
      },
      'exhausted',
      `not published after ${row.attempts} attempts: ${reason}`,
      { msgId: row.msgId, tenantId: row.tenantId },
    );
    await this.store.removeSent([row.id]);
  }
}

/**
 * The wait before the next sweep after `idleSweeps` idle ones in a row: the interval, doubled per
 * idle sweep, at most IDLE_SWEEP_MAX_INTERVALS of it. Rows a writer failed to publish, or that
 * wait for a retry, keep the interval; a dead writer's rows are found at worst that much later.
 */
export function idleSweepDelayMs(intervalMs: number, idleSweeps: number): number {
  return intervalMs * Math.min(2 ** idleSweeps, IDLE_SWEEP_MAX_INTERVALS);
}
