import { cpuSecondsOf, machineBusySeconds, type ProcessGroup } from '../measure/process-cpu';

/**
 * CPU seconds per group over a window, counting processes that come and go within it: each
 * process is read every `sample()`, and one that ended keeps the time it was last seen with.
 * (A Postgres backend that a pool closes and opens again lives only seconds: a snapshot at the
 * start and one at the end would miss what its start-up cost.)
 */
export class CpuAccumulator {
  private readonly first = new Map<string, Map<number, number>>();
  private readonly last = new Map<string, Map<number, number>>();
  private readonly started = new Set<string>();
  private machineStart = 0;
  private machineLast = 0;

  constructor(
    private readonly groups: readonly ProcessGroup[],
    private readonly read: (pid: number) => number = cpuSecondsOf,
    private readonly machine: () => number = machineBusySeconds,
  ) {}

  /** The window begins: what every process of every group has used so far is not counted. */
  start(): void {
    for (const group of this.groups) {
      const seen = new Map(group.pids().map((pid) => [pid, this.read(pid)]));
      this.first.set(group.name, new Map(seen));
      this.last.set(group.name, seen);
      this.started.add(group.name);
    }
    this.machineStart = this.machineLast = this.machine();
  }

  /** Reads every process of every group now; a process not seen before counts from its start. */
  sample(): void {
    for (const group of this.groups) {
      const first = this.first.get(group.name)!;
      const last = this.last.get(group.name)!;
      for (const pid of group.pids()) {
        const seconds = this.read(pid);
        if (!first.has(pid)) first.set(pid, 0);
        // A pid read as 0 is gone: it keeps what it was last seen with.
        if (seconds > 0 || !last.has(pid)) last.set(pid, Math.max(seconds, last.get(pid) ?? 0));
      }
    }
    this.machineLast = this.machine();
  }

  /** CPU seconds per group so far in the window, the processes each group had, and the machine's. */
  totals(): { seconds: Record<string, number>; processes: Record<string, number>; machine: number } {
    const seconds: Record<string, number> = {};
    const processes: Record<string, number> = {};
    for (const group of this.groups) {
      const first = this.first.get(group.name)!;
      const last = this.last.get(group.name)!;
      seconds[group.name] = [...last].reduce((sum, [pid, s]) => sum + Math.max(0, s - first.get(pid)!), 0);
      processes[group.name] = last.size;
    }
    return { seconds, processes, machine: this.machineLast - this.machineStart };
  }
}
