import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose work the code now running does: a durable consumer's name while its handler runs, or
 * the lane an RPC arrived in while the RPC is handled. RPCs made meanwhile carry it
 * (LANE_HEADER), and a busy endpoint or model shares its slots between lanes in turn
 * (Semaphore), so one consumer's backlog cannot starve another's calls.
 */
const lanes = new AsyncLocalStorage<string>();

/** The lane of an RPC, as the caller was in it. */
export const LANE_HEADER = 'Engram-Lane';

/** Runs `work` in `lane` (and everything it starts, through awaits). */
export function inLane<T>(lane: string, work: () => T): T {
  return lanes.run(lane, work);
}

/** The lane of the code now running; '' outside any. */
export function currentLane(): string {
  return lanes.getStore() ?? '';
}
