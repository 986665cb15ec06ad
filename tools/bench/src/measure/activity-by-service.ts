import type { Client } from 'pg';

export interface ActivityShare {
  /** "cpu UPDATE messages", "Lock:transactionid SELECT id FROM conversations", "idle in transaction" … */
  readonly what: string;
  /** Share of this service's busy-connection samples. */
  readonly share: number;
}

export interface ServiceActivity {
  /** Mean number of the service's connections inside a statement or a transaction. */
  readonly meanBusyConnections: number;
  readonly top: readonly ActivityShare[];
}

/**
 * Samples pg_stat_activity of one database every `intervalMs`, per service (the services
 * connect as application_name "engram-<service>"): what their busy connections were doing —
 * on CPU in which statement, waiting for which lock or for the WAL, or idle inside a
 * transaction (waiting for the service's process). Unlike WaitEventSampler (one profile of
 * every connection) it tells the services apart and names the statement.
 */
export class ActivityByService {
  private readonly counts = new Map<string, Map<string, number>>();
  private samples = 0;
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly admin: Client,
    private readonly database: string,
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.sample().catch(() => undefined);
  }

  async stop(top = 6): Promise<Record<string, ServiceActivity>> {
    this.running = false;
    await this.loop;
    const out: Record<string, ServiceActivity> = {};
    for (const [service, counts] of this.counts) {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      out[service] = {
        meanBusyConnections: this.samples ? total / this.samples : 0,
        top: [...counts]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([what, n]) => ({ what, share: n / total })),
      };
    }
    return out;
  }

  private async sample(): Promise<void> {
    while (this.running) {
      const { rows } = await this.admin.query<{
        app: string;
        state: string;
        type: string | null;
        event: string | null;
        query: string;
      }>(
        `SELECT application_name AS app, state, wait_event_type AS type, wait_event AS event,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 40) AS query
           FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            AND state IN ('active', 'idle in transaction')`,
        [this.database],
      );
      this.samples++;
      for (const r of rows) {
        const service = r.app.replace(/^engram-/, '') || 'unknown';
        const statement = r.query.split(' ').slice(0, 3).join(' ');
        const what =
          r.state === 'idle in transaction'
            ? 'idle in transaction (waiting for the service)'
            : `${r.type ? `${r.type}:${r.event}` : 'cpu'} ${statement}`;
        const counts = this.counts.get(service) ?? new Map<string, number>();
        counts.set(what, (counts.get(what) ?? 0) + 1);
        this.counts.set(service, counts);
      }
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }
}
