import { Logger } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { ContractViolationError, decodeMessage, type ConsumerSpec } from '@engram/contracts';
import { counter, histogram, inLane } from '@engram/platform';
import { context, SpanKind, trace, type Context } from '@engram/telemetry';
import type { ConsumerRuntimeOptions } from '../messaging.options';
import type { DeadLetterCause, DeadLetterPublisher } from '../publishing/dead-letter.publisher';
import { spanAround } from '../tracing/span-around';
import { extractTraceContext } from '../tracing/trace-headers';
import { Delivery, InvalidEventError, type Verdict } from './delivery';
import { errorMessage } from './error-message';
import { isDependencyFailure } from './failure-kind';
import { retryDelayMs } from './retry-policy';

/** Calls the Nest handler with one delivery or a batch; rejects when the handler failed. */
export type HandlerInvoker = (payload: Delivery<unknown> | Delivery<unknown>[]) => Promise<void>;

export interface ConsumerRunnerDeps {
  readonly js: JetStreamClient;
  readonly deadLetters: DeadLetterPublisher;
  readonly retry: { baseDelayMs: number; maxDelayMs: number };
  /** Whether the service's dependencies answer (its readiness): consumption resumes when they do. */
  readonly dependenciesReady: () => Promise<boolean>;
}

const outcomes = counter('engram_consumer_messages_total', 'Messages settled per consumer and outcome', [
  'consumer',
  'outcome',
]);
const handlerSeconds = histogram('engram_consumer_handler_seconds', 'Handler time per batch or message', [
  'consumer',
]);
const tracer = trace.getTracer('@engram/messaging');

/**
 * Runs one durable pull consumer: pulls messages, groups them into batches
 * (size or linger time), runs at most `concurrency` batches at once, and settles
 * each message only after the handler finished: ack, retry with backoff, or dead
 * letter. Nothing here ever throws into the pull loop: a bad message cannot stop
 * the messages behind it.
 */
export class ConsumerRunner {
  private readonly logger: Logger;
  private readonly pending: JsMsg[] = [];
  private oldestPendingAt = 0;
  private lingerTimer?: NodeJS.Timeout;
  private inFlight = 0;
  /** Batches dispatched before they were full (at most one: see schedule). */
  private partialInFlight = 0;
  private stopping = false;
  private paused = false;
  private messages?: ConsumerMessages;
  private pumping?: Promise<void>;
  private wakeUp?: () => void;
  private holdPending?: NodeJS.Timeout;

  constructor(
    private readonly spec: ConsumerSpec,
    private readonly batched: boolean,
    private readonly runtime: ConsumerRuntimeOptions,
    private readonly invoke: HandlerInvoker,
    private readonly deps: ConsumerRunnerDeps,
  ) {
    this.logger = new Logger(`${ConsumerRunner.name} ${spec.durable}`);
  }

  private get batchSize(): number {
    return this.batched ? this.runtime.batchSize : 1;
  }

  async start(): Promise<void> {
    const consumer = await this.deps.js.consumers.get(this.spec.stream.name, this.spec.durable);
    const prefetch = Math.min(
      this.spec.maxAckPending,
      Math.max(this.batchSize * this.runtime.concurrency * 2, 16),
    );
    this.messages = await consumer.consume({ max_messages: prefetch });
    this.pumping = this.pump(this.messages);
    // Pulled but not started (waiting for a slot, or paused while a dependency is down):
    // keep them ours, so waiting costs them no delivery.
    this.holdPending = setInterval(
      () => this.pending.forEach((msg) => msg.working()),
      Math.max(1000, this.spec.ackWaitMs / 3),
    );
    this.holdPending.unref();
  }

  /** Stops pulling, hands back what is buffered, and waits (up to graceMs) for running handlers. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.lingerTimer);
    clearInterval(this.holdPending);
    this.messages?.stop();
    for (const msg of this.pending.splice(0)) msg.nak();
    this.wake();
    const deadline = Date.now() + graceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await sleep(20);
    if (this.inFlight > 0) this.logger.warn(`${this.inFlight} batch(es) still running after ${graceMs} ms`);
    await this.pumping?.catch(() => undefined);
  }

  private async pump(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        if (this.stopping) {
          msg.nak();
          continue;
        }
        if (this.pending.length === 0) this.oldestPendingAt = Date.now();
        this.pending.push(msg);
        this.schedule();
        // Backpressure: stop taking messages while a full batch waits for a free slot (or for a dependency).
        while (
          !this.stopping &&
          this.pending.length >= this.batchSize &&
          (this.paused || this.inFlight >= this.runtime.concurrency)
        ) {
          await new Promise<void>((resolve) => (this.wakeUp = resolve));
        }
      }
    } catch (error) {
      if (!this.stopping) this.logger.error(`pull loop ended: ${errorMessage(error)}`);
    }
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  /**
   * Dispatches full batches while slots are free, and a partial batch once it lingered
   * — but only one partial batch at a time: when messages trickle in, they wait for the
   * partial batch in flight and go together in the next, instead of spreading over every
   * slot in small, costly batches; under load, full batches use every slot.
   */
  private schedule(): void {
    while (
      !this.stopping &&
      !this.paused &&
      this.pending.length > 0 &&
      this.inFlight < this.runtime.concurrency
    ) {
      const full = this.pending.length >= this.batchSize;
      if (!full && this.partialInFlight > 0) return; // rescheduled when it completes
      const lingered = Date.now() - this.oldestPendingAt >= this.runtime.lingerMs;
      if (!full && !lingered) {
        this.lingerTimer ??= setTimeout(
          () => {
            this.lingerTimer = undefined;
            this.schedule();
          },
          Math.max(1, this.runtime.lingerMs - (Date.now() - this.oldestPendingAt)),
        );
        return;
      }
      const batch = this.pending.splice(0, this.batchSize);
      this.oldestPendingAt = Date.now();
      void this.process(batch, !full);
    }
  }

  private async process(batch: JsMsg[], partial: boolean): Promise<void> {
    this.inFlight++;
    if (partial) this.partialInFlight++;
    const settled = new Set<JsMsg>();
    const startedAt = Date.now();
    const keepAlive = setInterval(
      () => {
        // A hung handler must not hold its messages forever: after maxInFlightMs JetStream may redeliver them.
        if (Date.now() - startedAt < this.runtime.maxInFlightMs)
          batch.forEach((msg) => settled.has(msg) || msg.working());
      },
      Math.max(1000, this.spec.ackWaitMs / 3),
    );
    keepAlive.unref();
    const stopTimer = handlerSeconds.startTimer({ consumer: this.spec.durable });
    try {
      const deliveries: Array<{ msg: JsMsg; delivery: Delivery<unknown> }> = [];
      for (const msg of batch) {
        try {
          const message = decodeMessage(this.spec.schema, msg.data, { strict: this.spec.strictDecoding });
          const delivery = new Delivery(
            message,
            msg.subject,
            msg.seq,
            msg.info.deliveryCount,
            msg.time,
            msg.headers,
            extractTraceContext(msg.headers),
            async (verdict) => {
              await this.settle(msg, verdict);
              settled.add(msg);
            },
          );
          deliveries.push({ msg, delivery });
        } catch (error) {
          const reason =
            error instanceof ContractViolationError
              ? `does not decode as ${error.typeName}: ${error.message}`
              : `cannot be decoded: ${errorMessage(error)}`;
          await this.deadLetter(msg, 'invalid', reason);
          settled.add(msg);
        }
      }
      if (deliveries.length === 0) return;

      let failure: unknown;
      try {
        await this.traced(deliveries.map((d) => d.delivery));
      } catch (error) {
        failure = error;
      }
      await Promise.all(
        deliveries.map(async ({ msg, delivery }) => {
          if (delivery.isFinished) return delivery.finish(); // settled by the handler, or settling
          await this.settle(msg, delivery.verdict ?? verdictOf(failure));
          settled.add(msg);
        }),
      );
    } catch (error) {
      // Settling itself failed (NATS gone): unsettled messages come back after ack_wait.
      this.logger.error(`settling a batch failed: ${errorMessage(error)}`);
    } finally {
      stopTimer();
      clearInterval(keepAlive);
      this.inFlight--;
      if (partial) this.partialInFlight--;
      this.wake();
      this.schedule();
    }
  }

  /**
   * One consume span per batch. A lone message (a single consumer's, or a batch of one)
   * is consumed in its publisher's trace and the handler continues under the span; a
   * batch of several has a trace of its own linked to each message's, and each message's
   * announcements continue its own publisher's trace.
   */
  private traced(deliveries: Delivery<unknown>[]): Promise<void> {
    const lone = deliveries.length === 1 ? deliveries[0]! : undefined;
    const parent: Context = lone ? lone.traceContext : context.active();
    const links = lone
      ? []
      : deliveries
          .map((d) => trace.getSpanContext(d.traceContext))
          .filter((c) => c !== undefined)
          .map((c) => ({ context: c }));
    const single = !this.batched;
    // Every RPC the handler makes is this consumer's work: a busy endpoint shares its slots by lane.
    return inLane(this.spec.durable, () =>
      tracer.startActiveSpan(
        `consume ${this.spec.durable}`,
        {
          kind: SpanKind.CONSUMER,
          links,
          attributes: { 'messaging.system': 'nats', 'messaging.batch.message_count': deliveries.length },
        },
        parent,
        async (span) => {
          // Explicit, not context.active(): a process without a context manager continues the trace too.
          if (lone) lone.traceContext = trace.setSpan(parent, span);
          await spanAround(span, () => this.invoke(single ? deliveries[0]! : deliveries));
        },
      ),
    );
  }

  private async settle(msg: JsMsg, verdict: Verdict | undefined): Promise<void> {
    if (!verdict) {
      msg.ack();
      outcomes.inc({ consumer: this.spec.durable, outcome: 'ack' });
      return;
    }
    if (verdict.kind === 'reject') {
      await this.deadLetter(msg, 'invalid', verdict.reason, verdict.details);
      return;
    }
    const deliveries = msg.info.deliveryCount;
    if (verdict.dependencyDown) {
      this.logger.warn(`#${msg.seq} waits for a dependency: ${verdict.reason}`);
      msg.nak(retryDelayMs(deliveries, this.deps.retry));
      outcomes.inc({ consumer: this.spec.durable, outcome: 'retry' });
      this.pauseUntilReady();
      return;
    }
    if (deliveries >= this.spec.maxDeliver) {
      await this.deadLetter(
        msg,
        'exhausted',
        `failed ${deliveries} deliveries; last error: ${verdict.reason}`,
      );
      return;
    }
    this.logger.warn(
      `delivery ${deliveries}/${this.spec.maxDeliver} of #${msg.seq} failed: ${verdict.reason}`,
    );
    msg.nak(retryDelayMs(deliveries, this.deps.retry));
    outcomes.inc({ consumer: this.spec.durable, outcome: 'retry' });
  }

  /**
   * A dependency is down: stop dispatching (so messages do not burn their
   * deliveries against it) until the service reports ready again.
   */
  private pauseUntilReady(): void {
    if (this.paused || this.stopping) return;
    this.paused = true;
    this.logger.warn('paused: a dependency is unavailable');
    void (async () => {
      while (!this.stopping && !(await this.deps.dependenciesReady().catch(() => false))) await sleep(1000);
      this.paused = false;
      this.logger.log('resumed');
      this.wake();
      this.schedule();
    })();
  }

  /** The dead letter is durable before the original is terminated; if it cannot be written, retry later. */
  private async deadLetter(
    msg: JsMsg,
    cause: DeadLetterCause,
    reason: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.deps.deadLetters.publish(
        this.deps.js,
        {
          stream: this.spec.stream.name,
          consumer: this.spec.durable,
          subject: msg.subject,
          sequence: msg.seq,
          data: msg.data,
          headers: msg.headers,
          deliveries: msg.info.deliveryCount,
        },
        cause,
        reason,
        details,
      );
      msg.term();
      outcomes.inc({ consumer: this.spec.durable, outcome: 'dead_letter' });
      this.logger.warn(`#${msg.seq} on ${msg.subject} dead-lettered (${cause}): ${reason}`);
    } catch (error) {
      this.logger.error(`could not dead-letter #${msg.seq}: ${errorMessage(error)}; retrying later`);
      msg.nak(retryDelayMs(msg.info.deliveryCount, this.deps.retry));
    }
  }
}

function verdictOf(failure: unknown): Verdict | undefined {
  if (failure === undefined) return undefined;
  if (failure instanceof InvalidEventError) {
    return failure.details
      ? { kind: 'reject', reason: failure.message, details: failure.details }
      : { kind: 'reject', reason: failure.message };
  }
  return { kind: 'retry', reason: errorMessage(failure), dependencyDown: isDependencyFailure(failure) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
