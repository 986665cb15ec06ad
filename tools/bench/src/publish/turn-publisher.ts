import type { JetStreamClient } from '@nats-io/jetstream';
import type { CorpusTurn } from '../corpus/turn-corpus';
import { PublishWindow } from './publish-window';

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

/** Publishes every turn as fast as JetStream accepts it, at most `window` unacknowledged. */
export async function publishTurns(
  js: JetStreamClient,
  turns: readonly CorpusTurn[],
  window: number,
  startedAt = performance.now(),
): Promise<PublishResult> {
  const publisher = new PublishWindow(js, window);
  for (const turn of turns) {
    await publisher.waitForRoom();
    if (publisher.failure) break;
    publisher.send(turn);
  }
  await publisher.drain();
  return {
    startedAt,
    finishedAt: performance.now(),
    published: turns.length,
    duplicates: publisher.duplicates,
    retries: publisher.retries,
  };
}
