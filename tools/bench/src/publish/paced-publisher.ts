import type { JetStreamClient } from '@nats-io/jetstream';
import type { CorpusTurn } from '../corpus/turn-corpus';
import { PublishWindow } from './publish-window';

/** One stretch of the schedule: these turns, for this long (e.g. a warm-up, then the measurement). */
export interface PacedPhase {
  readonly name: string;
  readonly turns: readonly CorpusTurn[];
  readonly seconds: number;
}

export interface PacedPhaseResult {
  readonly name: string;
  /** Epoch ms (Date.now()) when the phase began and when its last publish was sent. */
  readonly startedAtMs: number;
  readonly lastSentAtMs: number;
  /** Epoch ms when the phase's time was up. */
  readonly endedAtMs: number;
  readonly turns: number;
  readonly messages: number;
  /** Messages sent ÷ the phase's actual duration. */
  readonly messagesPerSecond: number;
  /** The phase ran out of corpus before its time was up (the corpus was too small). */
  readonly ranOut: boolean;
}

export interface PacedResult {
  readonly phases: readonly PacedPhaseResult[];
  /** Epoch ms at which each turn (by Nats-Msg-Id) was handed to the client, and when JetStream acknowledged it. */
  readonly sentAtMs: ReadonlyMap<string, number>;
  readonly ackedAtMs: ReadonlyMap<string, number>;
  /** Most messages the publisher was ever behind its schedule after a tick (a late timer or a full window). */
  readonly maxBehindMessages: number;
  /** Longest gap between two ticks (the timer, or this process, was late). */
  readonly maxTickGapMs: number;
  readonly ticks: number;
  /** Ticks at which the window of unacknowledged publishes was full (JetStream could not keep up). */
  readonly windowFullTicks: number;
  readonly duplicates: number;
  readonly retries: number;
}

/**
 * Publishes at a steady rate of `messagesPerSecond` (messages, not turns): every `tickMs` it
 * sends as many whole turns as it takes to catch up with rate × elapsed time, so a late tick
 * is made up at the next and the rate does not drift. The schedule runs on across phases
 * without a pause. Publishes are asynchronous, at most `window` unacknowledged (each turn with
 * its Nats-Msg-Id; one that timed out is sent again and JetStream drops the copy).
 */
export async function publishPaced(
  js: JetStreamClient,
  phases: readonly PacedPhase[],
  options: { messagesPerSecond: number; tickMs: number; window: number; onPhase?: (name: string) => void },
): Promise<PacedResult> {
  const sentAtMs = new Map<string, number>();
  const publisher = new PublishWindow(js, options.window);

  const results: PacedPhaseResult[] = [];
  const start = performance.now();
  let sentMessages = 0;
  let maxBehind = 0;
  let maxTickGap = 0;
  let ticks = 0;
  let windowFullTicks = 0;
  let phaseEndsAt = 0; // ms since start
  let lastTick = start;
  for (const phase of phases) {
    phaseEndsAt += phase.seconds * 1000;
    options.onPhase?.(phase.name);
    const startedAtMs = Date.now();
    const phaseStart = performance.now();
    let cursor = 0;
    let messages = 0;
    let lastSentAtMs = startedAtMs;
    for (;;) {
      const now = performance.now();
      maxTickGap = Math.max(maxTickGap, now - lastTick);
      lastTick = now;
      const elapsed = now - start;
      if (elapsed >= phaseEndsAt || publisher.failure) break;
      ticks++;
      const target = (options.messagesPerSecond * elapsed) / 1000;
      while (sentMessages < target && cursor < phase.turns.length) {
        if (publisher.full) {
          windowFullTicks++;
          break;
        }
        const turn = phase.turns[cursor++]!;
        lastSentAtMs = Date.now();
        sentAtMs.set(turn.msgId, lastSentAtMs);
        publisher.send(turn);
        sentMessages += turn.messageCount;
        messages += turn.messageCount;
      }
      maxBehind = Math.max(maxBehind, target - sentMessages);
      if (cursor >= phase.turns.length) break;
      // The next tick on the grid of tickMs since the start (never drifting behind it).
      const next = start + (Math.floor(elapsed / options.tickMs) + 1) * options.tickMs;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    const ranOut = cursor >= phase.turns.length && performance.now() - start < phaseEndsAt - options.tickMs;
    const seconds = (performance.now() - phaseStart) / 1000;
    results.push({
      name: phase.name,
      startedAtMs,
      lastSentAtMs,
      endedAtMs: Date.now(),
      turns: cursor,
      messages,
      messagesPerSecond: messages / seconds,
      ranOut,
    });
    if (ranOut || publisher.failure) break;
  }
  await publisher.drain();
  return {
    phases: results,
    sentAtMs,
    ackedAtMs: publisher.ackedAtMs,
    maxBehindMessages: Math.max(0, maxBehind),
    maxTickGapMs: maxTickGap,
    ticks,
    windowFullTicks,
    duplicates: publisher.duplicates,
    retries: publisher.retries,
  };
}
