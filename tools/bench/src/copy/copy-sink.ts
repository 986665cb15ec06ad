import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';

/**
 * One `COPY <table> (<columns>) FROM STDIN` on a connection of its own, written to a chunk at a
 * time (waiting whenever Postgres has not taken the previous chunks yet), so several tables can
 * be loaded at once from one generator without holding their rows in memory.
 */
export class CopySink {
  rows = 0;
  bytes = 0;
  private failure: Error | undefined;

  private constructor(
    readonly table: string,
    private readonly client: Client,
    private readonly stream: CopyStreamQuery,
  ) {
    // Kept for the next write (an 'error' without a listener would end the process).
    stream.on('error', (error: Error) => (this.failure ??= error));
    client.on('error', (error: Error) => (this.failure ??= error));
  }

  /** Opens the COPY; `setup` statements run first on the same connection (e.g. session settings). */
  static async open(
    url: string,
    table: string,
    columns: readonly string[],
    setup: readonly string[] = [],
  ): Promise<CopySink> {
    const client = new Client({ connectionString: url, application_name: `engram-bench-copy-${table}` });
    await client.connect();
    try {
      for (const statement of setup) await client.query(statement);
      const stream = client.query(
        copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, { highWaterMark: 1 << 22 }),
      );
      return new CopySink(table, client, stream);
    } catch (error) {
      await client.end();
      throw error;
    }
  }

  /** Appends COPY text (whole lines); resolves once the stream can take more. */
  async write(text: string, rows: number): Promise<void> {
    if (this.failure) throw this.failure;
    if (!text) return;
    const chunk = Buffer.from(text, 'utf8');
    this.rows += rows;
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Ends the COPY (it commits) and checks that Postgres took every row. */
  async close(): Promise<void> {
    try {
      this.stream.end();
      await finished(this.stream);
      if (this.stream.rowCount !== this.rows)
        throw new Error(`COPY ${this.table} loaded ${this.stream.rowCount} rows, ${this.rows} were sent`);
    } finally {
      await this.client.end();
    }
  }

  /** Abandons the COPY (it rolls back). */
  async abort(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
