import type { ProfileSummary } from '../profile/cpu-profile-summary';
import type { MachineDescription } from '../report/machine';
import type { CorpusSpec } from '../search/corpus-shape';

/** Counters of the benchmark's database (pg_stat_database). */
export interface DatabaseActivity {
  readonly transactions: number;
  /** Rows read by sequential and index scans (tup_returned): what an O(all rows) query shows in. */
  readonly rowsScanned: number;
  readonly rowsFetched: number;
  readonly blocks: number;
  /** Connections opened. */
  readonly sessions: number;
}

export interface IdleFigures {
  /** CPU of each process (group) over the window, % of one core. */
  readonly cpuPctOfCore: Record<string, number>;
  /** Their sum: the stack's idle CPU, % of one core. */
  readonly idleCpuPct: number;
  /** Everything the machine did meanwhile (other work included), % of one core. */
  readonly machineCpuPct: number;
  readonly cpuSeconds: Record<string, number>;
  /** Processes seen per group (Postgres backends opened during the window count). */
  readonly processes: Record<string, number>;
  readonly windowSeconds: number;
  /** What the window asked of Postgres, per minute. */
  readonly database: Record<keyof DatabaseActivity, number>;
}

export interface IdleBenchResult extends IdleFigures {
  readonly benchmark: 'idle';
  readonly finishedAt: string;
  readonly machine: MachineDescription & { readonly loadAverageAtWindow: number };
  readonly corpus: {
    readonly database: string;
    readonly reused: boolean;
    readonly spec: CorpusSpec;
    readonly tenants: number;
    readonly rows: Record<string, number>;
  };
  readonly settings: Record<string, unknown>;
  /** The --cpu-prof service's self time in the window, by origin and function. */
  readonly profile?: ProfileSummary & { readonly service?: string };
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** CPU seconds over a window as % of one core per group, their sum, and Postgres' counters per minute. */
export function idleFigures(
  totals: { seconds: Record<string, number>; processes: Record<string, number>; machine: number },
  windowSeconds: number,
  before: DatabaseActivity,
  after: DatabaseActivity,
): IdleFigures {
  const pct = (seconds: number) => r2((seconds / windowSeconds) * 100);
  const cpuPctOfCore = Object.fromEntries(Object.entries(totals.seconds).map(([k, s]) => [k, pct(s)]));
  const ours = Object.values(totals.seconds).reduce((a, b) => a + b, 0);
  const perMinute = (k: keyof DatabaseActivity) => r2(((after[k] - before[k]) / windowSeconds) * 60);
  return {
    cpuPctOfCore,
    idleCpuPct: pct(ours),
    machineCpuPct: pct(totals.machine),
    cpuSeconds: Object.fromEntries(Object.entries(totals.seconds).map(([k, s]) => [k, r2(s)])),
    processes: totals.processes,
    windowSeconds: r2(windowSeconds),
    database: {
      transactions: perMinute('transactions'),
      rowsScanned: perMinute('rowsScanned'),
      rowsFetched: perMinute('rowsFetched'),
      blocks: perMinute('blocks'),
      sessions: perMinute('sessions'),
    },
  };
}
