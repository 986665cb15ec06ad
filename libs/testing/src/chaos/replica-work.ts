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

/** A running process's work so far, read from its /metrics. */
export async function scrapeWork(service: ServiceProcess): Promise<ReplicaWork> {
  const response = await fetch(`http://127.0.0.1:${service.httpPort}/metrics`);
  if (!response.ok) throw new Error(`${service.name} /metrics answered ${response.status}`);
  return workInMetrics(await response.text());
}
