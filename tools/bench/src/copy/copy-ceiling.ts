import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { NormalizedTurn } from '@engram/memory-core';
import { cpuSecondsOf } from '../measure/process-cpu';
import { copyLine, MESSAGE_COLUMNS } from './message-rows';

export interface CopyCeiling {
  readonly rows: number;
  readonly bytes: number;
  /** The COPY statement alone, from sending it to its commit. */
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** CPU seconds of the COPY's backend: unlike its wall time, not stretched by other work on the machine. */
  readonly cpuSeconds: number;
}

const CHUNK_BYTES = 1 << 20;

/**
 * The ceiling: the same message rows that ingest writes, loaded with one COPY into
 * the messages table (same schema, indexes, generated tsvector and foreign key) of a
 * fresh database. Tenants and conversations are created first and are not timed; the
 * COPY text is prepared in memory beforehand, so only Postgres is measured.
 *
 * It runs as the superuser: Postgres refuses COPY FROM into a table with row-level
 * security for any role that is subject to it.
 */
export async function measureCopyCeiling(
  adminUrl: string,
  turns: readonly NormalizedTurn[],
): Promise<CopyCeiling> {
  const client = new Client({ connectionString: adminUrl, application_name: 'engram-bench-copy' });
  await client.connect();
  try {
    const conversationIds = await createConversations(client, turns);
    const chunks: string[] = [];
    let chunk = '';
    let rows = 0;
    let bytes = 0;
    for (const turn of turns) {
      const conversationId = conversationIds.get(conversationKey(turn))!;
      for (const message of turn.messages) {
        chunk += copyLine(turn, conversationId, message);
        rows++;
        if (chunk.length >= CHUNK_BYTES) {
          chunks.push(chunk);
          bytes += Buffer.byteLength(chunk);
          chunk = '';
        }
      }
    }
    if (chunk) {
      chunks.push(chunk);
      bytes += Buffer.byteLength(chunk);
    }
    const buffers = chunks.map((c) => Buffer.from(c, 'utf8'));
    await client.query('CHECKPOINT');
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

    const cpuBefore = cpuSecondsOf(backend);
    const started = performance.now();
    await pipeline(
      Readable.from(buffers),
      client.query(copyFrom(`COPY messages (${MESSAGE_COLUMNS.join(', ')}) FROM STDIN`)),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSecondsOf(backend) - cpuBefore;

    const { rows: counted } = await client.query<{ n: string }>('SELECT count(*) AS n FROM messages');
    if (Number(counted[0]!.n) !== rows)
      throw new Error(`COPY loaded ${counted[0]!.n} rows, expected ${rows}`);
    return { rows, bytes, seconds, rowsPerSecond: rows / seconds, cpuSeconds };
  } finally {
    await client.end();
  }
}

const conversationKey = (t: { tenantId: string; agent: string; sessionKey: string }) =>
  `${t.tenantId}\u0000${t.agent}\u0000${t.sessionKey}`;

/** Tenants and conversations as ingest would have created them (untimed). */
async function createConversations(
  client: Client,
  turns: readonly NormalizedTurn[],
): Promise<Map<string, string>> {
  const first = new Map<string, NormalizedTurn>();
  for (const turn of turns) if (!first.has(conversationKey(turn))) first.set(conversationKey(turn), turn);
  const conversations = [...first.values()];
  await client.query(
    `INSERT INTO tenants (tenant_id) SELECT DISTINCT unnest($1::text[]) ON CONFLICT DO NOTHING`,
    [conversations.map((c) => c.tenantId)],
  );
  const { rows } = await client.query<{ id: string; tenant_id: string; agent: string; session_key: string }>(
    `INSERT INTO conversations (tenant_id, agent, session_key, channel, title, model)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
     RETURNING id, tenant_id, agent, session_key`,
    [
      conversations.map((c) => c.tenantId),
      conversations.map((c) => c.agent),
      conversations.map((c) => c.sessionKey),
      conversations.map((c) => c.channel),
      conversations.map((c) => c.title),
      conversations.map((c) => c.model),
    ],
  );
  return new Map(
    rows.map((r) => [
      conversationKey({ tenantId: r.tenant_id, agent: r.agent, sessionKey: r.session_key }),
      String(r.id),
    ]),
  );
}
