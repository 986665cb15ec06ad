import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A group of processes whose CPU time is accounted together (e.g. "postgres"). */
export interface ProcessGroup {
  readonly name: string;
  /** The process ids in the group right now (re-evaluated at every snapshot). */
  readonly pids: () => number[];
}

export type CpuSnapshot = ReadonlyMap<string, number>;

const ticksPerSecond = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(out.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** User + system CPU seconds of one process so far (0 once it is gone). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) are the 12th and 13th after the command name.
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** A process and its direct children (a Postgres postmaster and its backends). */
export function processAndChildren(root: number): number[] {
  const pids = [root];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && parentOf(pid) === root) pids.push(pid);
  }
  return pids;
}

/** The backends of a Postgres postmaster serving `database` (their process titles name it). */
export function backendsOf(postmaster: number, database: string): number[] {
  return processAndChildren(postmaster).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split(/[\s\0]/)
        .includes(database);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/**
 * A Postgres server's postmaster and auxiliary processes (WAL writer, checkpointer, background
 * writer …): they work for every database of the server, someone else's benchmark's too.
 */
export function postgresAuxiliaries(postmaster: number): number[] {
  return processAndChildren(postmaster).filter((pid) => {
    if (pid === postmaster) return true;
    try {
      const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\s\0]/);
      // A backend's title names its client's address, "127.0.0.1(35840)" or "[local]"; an autovacuum
      // worker names its database.
      return !words.some((w) => /\(\d+\)$/.test(w) || w === '[local]' || w === 'worker');
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Processes whose command line contains every one of `parts` (e.g. nats-server and its port). */
export function processesMatching(parts: readonly string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (parts.every((p) => cmdline.includes(p) || cmdline.some((arg) => arg.endsWith(p)))) found.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Busy CPU seconds of the whole machine so far (all cores; /proc/stat less idle and iowait). */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - fields[3]! - fields[4]!) / ticksPerSecond;
}

/** CPU seconds so far per group, and under "other" everything else the machine did (other work skews the figures). */
export function snapshotCpu(groups: readonly ProcessGroup[]): CpuSnapshot {
  const perGroup = groups.map((g): [string, number] => [
    g.name,
    g.pids().reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
  ]);
  return new Map([...perGroup, ['machine', machineBusySeconds()]]);
}

/**
 * CPU seconds each group used between two snapshots. Processes that ended in
 * between lose their time (Postgres backends of the benchmark live throughout).
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const round = (x: number) => Math.round(Math.max(0, x) * 100) / 100;
  const used = Object.fromEntries(
    [...after].map(([name, seconds]) => [name, seconds - (before.get(name) ?? 0)]),
  );
  const { machine = 0, ...groups } = used;
  const ours = Object.values(groups).reduce((a, b) => a + b, 0);
  return {
    ...Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, round(v)])),
    other: round(machine - ours),
  };
}

/** Resident memory of one process in MB (VmRSS of /proc/<pid>/status); null once it is gone. */
export function residentMegabytes(pid: number): number | null {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}
