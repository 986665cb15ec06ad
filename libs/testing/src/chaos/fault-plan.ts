import { SERVICE_NAMES, type ServiceName } from '@engram/contracts';

/** The workers a chaos run kills: every service but the HTTP edge (it carries none of the load). */
export type ChaosWorker = Exclude<ServiceName, 'api'>;
export const CHAOS_WORKERS: readonly ChaosWorker[] = SERVICE_NAMES.filter(
  (name): name is ChaosWorker => name !== 'api',
);

export type Fault =
  | { readonly atMs: number; readonly kind: 'kill'; readonly worker: ChaosWorker }
  | { readonly atMs: number; readonly kind: 'restart-nats' }
  | { readonly atMs: number; readonly kind: 'restart-postgres' }
  | { readonly atMs: number; readonly kind: 'stall-gerty'; readonly forMs: number };

export interface FaultPlanOptions {
  /** How long the load runs; every fault starts inside it, the last one a tenth before its end. */
  readonly loadMs: number;
  /** SIGKILLs of each worker (each followed by a restart). */
  readonly killsPerWorker: number;
  /** How long Gerty is stopped (SIGSTOP … SIGCONT). */
  readonly gertyStallMs: number;
}

/**
 * When each fault happens: kills of every worker `killsPerWorker` times, one restart of
 * nats-server and one of Postgres, and one Gerty stall, spread evenly over the first 90 % of the
 * load in a fixed interleaving (so a run replays); the Gerty stall starts early enough to end
 * within the load, and no kill of Gerty falls inside it. Sorted by time.
 */
export function planFaults(options: FaultPlanOptions): Fault[] {
  const kinds: Array<'restart-nats' | 'restart-postgres' | ChaosWorker> = [];
  for (let round = 0; round < options.killsPerWorker; round++) kinds.push(...CHAOS_WORKERS);
  // The infrastructure faults fall among the kills: NATS a third in, Postgres two thirds in.
  kinds.splice(Math.round(kinds.length / 3), 0, 'restart-nats');
  kinds.splice(Math.round((kinds.length * 2) / 3), 0, 'restart-postgres');
  const span = options.loadMs * 0.9;
  const step = span / (kinds.length + 1);
  const faults: Fault[] = kinds.map((kind, i) => {
    const atMs = Math.round(step * (i + 1));
    return kind === 'restart-nats' || kind === 'restart-postgres'
      ? { atMs, kind }
      : { atMs, kind: 'kill', worker: kind };
  });
  const stallAt = Math.max(
    0,
    Math.min(Math.round(options.loadMs * 0.1), options.loadMs - options.gertyStallMs),
  );
  const stallEnd = stallAt + options.gertyStallMs;
  const clear = faults.filter(
    (f) => !(f.kind === 'kill' && f.worker === 'gerty' && f.atMs >= stallAt && f.atMs <= stallEnd),
  );
  // A Gerty kill that fell inside the stall moves to just after it.
  const moved = faults
    .filter((f) => !clear.includes(f))
    .map((f, i): Fault => ({ ...f, atMs: stallEnd + 500 * (i + 1) }));
  const stall: Fault = { atMs: stallAt, kind: 'stall-gerty', forMs: options.gertyStallMs };
  return [...clear, ...moved, stall].sort((a, b) => a.atMs - b.atMs);
}
