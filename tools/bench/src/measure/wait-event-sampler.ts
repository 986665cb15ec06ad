import type { Client } from 'pg';

export interface WaitEventShare {
  /** "cpu" (active, no wait), "Lock:transactionid", "LWLock:WALWrite", "IO:WALSync", "Client:ClientRead" … */
  readonly what: string;
  /** Share of all samples of the service's connections that were inside a transaction or statement. */
  readonly share: number;
}

export interface WaitEventProfile {
  readonly samples: number;
  /** Mean number of the service's connections busy in Postgres (in a statement or a transaction). */
  readonly meanBusyConnections: number;
  readonly events: readonly WaitEventShare[];
}

/**
 * Samples pg_stat_activity for one database while the benchmark runs: what the
 * service's connections were doing (running on CPU, waiting for a lock, for the WAL,
 * for the client …). Tells whether Postgres is busy, blocked or starved.
 */
export class WaitEventSampler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private busy = 0;
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly admin: Client,
    private readonly database: string,
    private readonly intervalMs = 50,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<WaitEventProfile> {
    this.running = false;
    await this.loop;
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    return {
      samples: this.samples,
      meanBusyConnections: this.samples ? this.busy / this.samples : 0,
      events: [...this.counts]
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => ({ what, share: total ? n / total : 0 })),
    };
  }

  private async run(): Promise<void> {
    try {
      await this.sample();
    } catch {
      // The client went away (the benchmark is failing): stop sampling.
    }
  }

  private async sample(): Promise<void> {
    while (this.running) {
      const { rows } = await this.admin.query<{ state: string; type: string | null; event: string | null }>(
        `SELECT state, wait_event_type AS type, wait_event AS event FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            AND state IN ('active', 'idle in transaction')`,
        [this.database],
      );
      this.samples++;
      this.busy += rows.length;
      for (const r of rows) {
        const what =
          r.state === 'idle in transaction'
            ? 'idle in transaction (waiting for the service)'
            : r.type
              ? `${r.type}:${r.event}`
              : 'cpu';
        this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }
}
