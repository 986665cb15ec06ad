import type { ServiceProcess } from '../service-process';

/**
 * What one process says it did, from its own /metrics: by durable consumer, the messages it
 * acknowledged (`engram_consumer_messages_total{outcome="ack"}`); by RPC subject, the requests it
 * answered (`engram_rpc_requests_total{code="OK"}`). Counters start at zero with the process, so
 * whatever is counted was done by this replica.
 */
export type ReplicaWork = Readonly<Record<string, number>>;

const SAMPLE = /^(engram_consumer_messages_total|engram_rpc_requests_total)\{([^}]*)\}\s+(\S+)$/;

/** The work in a Prometheus text exposition (empty when the counters are absent). */
export function workInMetrics(text: string): ReplicaWork {
  const work: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line.trim());
    if (!match) continue;
    const labels = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const name =
      match[1] === 'engram_consumer_messages_total'
        ? labels['outcome'] === 'ack' && labels['consumer']
        : labels['code'] === 'OK' && labels['rpc'];
    if (name) work[name] = (work[name] ?? 0) + Number(match[3]);
  }
  return work;
}

/** How many of the named consumers' messages and RPCs' requests the replica handled. */
export function handled(work: ReplicaWork, names: readonly string[]): number {
  return names.reduce((sum, name) => sum + (work[name] ?? 0), 0);
}

/** A running process's work so far, read from its /metrics (given up after 5 s: a stopped process never answers). */
export async function scrapeWork(service: ServiceProcess): Promise<ReplicaWork> {
  const response = await fetch(`http://127.0.0.1:${service.httpPort}/metrics`, {
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`${service.name} /metrics answered ${response.status}`);
  return workInMetrics(await response.text());
}

/**
 * The work of every process of a run, a killed one's as last read: what each consumer
 * acknowledged and each RPC answered, whichever process did it. A process's counters only grow,
 * so its latest reading replaces the one before.
 */
export class WorkTally {
  // Keyed by the process itself, not its pid: pids wrap around (pid_max 32,768 here) within a run.
  private readonly byProcess = new Map<ServiceProcess, ReplicaWork>();

  record(process: ServiceProcess, work: ReplicaWork): void {
    this.byProcess.set(process, work);
  }

  /** The sum over every process recorded. */
  total(): ReplicaWork {
    const total: Record<string, number> = {};
    for (const work of this.byProcess.values())
      for (const [name, count] of Object.entries(work)) total[name] = (total[name] ?? 0) + count;
    return total;
  }
}
