import type { JetStreamClient } from '@nats-io/jetstream';
import type { CorpusTurn } from '../corpus/turn-corpus';

/**
 * Asynchronous publishes of turns with at most `size` unacknowledged, each with its
 * Nats-Msg-Id (the turn id): a publish that timed out is sent again, and JetStream
 * drops the copy. The first failure that outlives its retries ends the run (drain throws it).
 */
export class PublishWindow {
  /** Epoch ms at which JetStream acknowledged each turn (by Nats-Msg-Id). */
  readonly ackedAtMs = new Map<string, number>();
  duplicates = 0;
  retries = 0;
  failure: unknown;
  private outstanding = 0;
  private wake: (() => void) | undefined;

  constructor(
    private readonly js: JetStreamClient,
    readonly size: number,
  ) {}

  get full(): boolean {
    return this.outstanding >= this.size;
  }

  /** Sends without waiting for the acknowledgement; the caller keeps the window (see waitForRoom). */
  send(turn: CorpusTurn): void {
    this.outstanding++;
    this.publishOne(turn).then(
      () => this.release(),
      (error: unknown) => {
        this.failure ??= error;
        this.release();
      },
    );
  }

  async waitForRoom(): Promise<void> {
    while (this.full) await new Promise<void>((r) => (this.wake = r));
  }

  /** Waits for every acknowledgement; throws the first failure. */
  async drain(): Promise<void> {
    while (this.outstanding > 0) await new Promise<void>((r) => (this.wake = r));
    if (this.failure) throw this.failure;
  }

  private release(): void {
    this.outstanding--;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async publishOne(turn: CorpusTurn): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const ack = await this.js.publish(turn.subject, turn.payload, { msgID: turn.msgId, timeout: 10_000 });
        this.ackedAtMs.set(turn.msgId, Date.now());
        if (ack.duplicate) this.duplicates++;
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        this.retries++;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }
}
