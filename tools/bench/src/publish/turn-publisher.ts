import type { JetStreamClient } from '@nats-io/jetstream';
import type { CorpusTurn } from '../corpus/turn-corpus';

export interface PublishResult {
  /** performance.now() just before the first publish. */
  readonly startedAt: number;
  /** performance.now() when the last publish was acknowledged by JetStream (stored in the stream). */
  readonly finishedAt: number;
  readonly published: number;
  /** Acknowledged as duplicates of an earlier Nats-Msg-Id (must be 0 for a fresh stream). */
  readonly duplicates: number;
  readonly retries: number;
}

/**
 * Publishes every turn as fast as JetStream accepts it: asynchronous publishes with
 * at most `window` acknowledgements outstanding, each with its Nats-Msg-Id (the turn
 * id): a publish that timed out is sent again, and JetStream drops the copy.
 */
export async function publishTurns(
  js: JetStreamClient,
  turns: readonly CorpusTurn[],
  window: number,
  startedAt = performance.now(),
): Promise<PublishResult> {
  let outstanding = 0;
  let duplicates = 0;
  let retries = 0;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const released = () => {
    outstanding--;
    const w = wake;
    wake = undefined;
    w?.();
  };
  const publishOne = async (turn: CorpusTurn): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const ack = await js.publish(turn.subject, turn.payload, { msgID: turn.msgId, timeout: 10_000 });
        if (ack.duplicate) duplicates++;
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        retries++;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  };

  for (const turn of turns) {
    while (outstanding >= window) await new Promise<void>((r) => (wake = r));
    if (failure) break;
    outstanding++;
    publishOne(turn).then(released, (error: unknown) => {
      failure ??= error;
      released();
    });
  }
  while (outstanding > 0) await new Promise<void>((r) => (wake = r));
  if (failure) throw failure;
  return { startedAt, finishedAt: performance.now(), published: turns.length, duplicates, retries };
}
