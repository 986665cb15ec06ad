import type { JetStreamManager } from '@nats-io/jetstream';
import { ALL_STREAMS } from '@engram/contracts';

/** One durable consumer at one moment: how far it has acknowledged, and what it still has. */
export interface ConsumerMark {
  /** The stream sequence below which every message is acknowledged, as nats-server reports it. */
  readonly ackFloor: number;
  /** Messages its processes acknowledged so far, by their own count (WorkerStack.readWork). */
  readonly acknowledged: number;
  readonly pending: number;
  readonly unacknowledged: number;
}

/** Every durable consumer's mark at one moment of a run (seconds from its start). */
export interface AckFloorSample {
  readonly atSeconds: number;
  readonly consumers: Readonly<Record<string, ConsumerMark>>;
}

/** How long a consumer with work may go without acknowledging a message before the run calls it starved. */
export const STARVED_AFTER_SECONDS = 60;

/** Every durable consumer's ack floor, acknowledged, pending and unacknowledged counts now. */
export async function sampleAckFloors(
  jsm: JetStreamManager,
  atSeconds: number,
  acknowledged: Readonly<Record<string, number>>,
): Promise<AckFloorSample> {
  const consumers: Record<string, ConsumerMark> = {};
  for (const stream of ALL_STREAMS)
    for await (const info of jsm.consumers.list(stream.name)) {
      // Only the durables: a killed retrieval's ordered consumer lingers with nobody to read it, by design.
      if (!info.config.durable_name) continue;
      consumers[info.name] = {
        ackFloor: info.ack_floor.stream_seq,
        acknowledged: acknowledged[info.name] ?? 0,
        pending: info.num_pending,
        unacknowledged: info.num_ack_pending,
      };
    }
  return { atSeconds, consumers };
}

/**
 * Consumers that acknowledged nothing for longer than `limitSeconds` while they had messages
 * pending or unacknowledged, from samples in time order: one line each, for its longest stand.
 * Judged on the processes' own count, not the ack floor: after a restart nats-server 2.9 can
 * bring a consumer back with an older floor than it had, and a message acknowledged before the
 * restart is then neither pending nor acknowledged, so the floor stands until the consumer has
 * nothing unacknowledged, however much it acknowledges meanwhile (BENCHMARKS.md, chaos).
 */
export function starvedConsumers(
  samples: readonly AckFloorSample[],
  limitSeconds = STARVED_AFTER_SECONDS,
): string[] {
  const names = new Set(samples.flatMap((s) => Object.keys(s.consumers)));
  const starved: string[] = [];
  for (const name of names) {
    let worst: { from: AckFloorSample; to: AckFloorSample } | null = null;
    let since: AckFloorSample | null = null;
    for (const sample of samples) {
      const mark = sample.consumers[name];
      if (mark === undefined || mark.pending + mark.unacknowledged === 0) {
        since = null;
        continue;
      }
      if (since === null || since.consumers[name]?.acknowledged !== mark.acknowledged) {
        since = sample;
        continue;
      }
      if (!worst || sample.atSeconds - since.atSeconds > worst.to.atSeconds - worst.from.atSeconds)
        worst = { from: since, to: sample };
    }
    if (worst && worst.to.atSeconds - worst.from.atSeconds > limitSeconds) {
      const mark = worst.to.consumers[name]!;
      starved.push(
        `${name}: acknowledged nothing from ${worst.from.atSeconds} s to ${worst.to.atSeconds} s ` +
          `with ${mark.pending} pending and ${mark.unacknowledged} unacknowledged (ack floor ${mark.ackFloor})`,
      );
    }
  }
  return starved;
}

/**
 * For each consumer, seconds from `fromSeconds` (the end of the load) to the first sample from
 * which it had no work left; null for one still busy at the last sample.
 */
export function caughtUpSeconds(
  samples: readonly AckFloorSample[],
  fromSeconds: number,
): Record<string, number | null> {
  const after = samples.filter((s) => s.atSeconds >= fromSeconds);
  const names = new Set(samples.flatMap((s) => Object.keys(s.consumers)));
  const caughtUp: Record<string, number | null> = {};
  for (const name of names) {
    let at: number | null = null;
    for (const sample of after) {
      const mark = sample.consumers[name];
      const idle = mark === undefined || mark.pending + mark.unacknowledged === 0;
      if (!idle) at = null;
      else at ??= sample.atSeconds - fromSeconds;
    }
    caughtUp[name] = at;
  }
  return caughtUp;
}
