#!/usr/bin/env node
/**
 * The bare bus, as its own process (bench:search's echo rows): a NATS micro-style endpoint — a
 * queue subscription that answers every request with an empty reply — and nothing else: no
 * decoding, no validation, no tracing, no logging. What an RPC costs when the service does no
 * work. Given a database URL too, it first reads the store once (whether the subject's tenant
 * exists, on a pool of the app role): what an RPC costs that only asks Postgres one question.
 * Arguments: the NATS URL, the subject to answer (wildcards allowed), and optionally the database
 * URL. It says "ready" to its parent (IPC) once the subscription is registered with the server,
 * and drains on SIGTERM.
 *
 * (Not @nats-io/services: its only release is a pre-release built on nats-core 3.0.0-50, so it
 * would bring a second, older client; its endpoints are this same queue subscription.)
 */
import { connect, type Msg } from '@nats-io/transport-node';
import { Pool } from 'pg';

const EMPTY = new Uint8Array(0);
const TENANT_EXISTS = 'SELECT EXISTS (SELECT 1 FROM tenants WHERE tenant_id = $1) AS known';

async function main(): Promise<void> {
  const [servers, subject, databaseUrl] = process.argv.slice(2);
  if (!servers || !subject) throw new Error('usage: echo-service <nats-url> <subject> [<database-url>]');
  const pool = databaseUrl ? new Pool({ connectionString: databaseUrl, max: 8 }) : null;
  const answer = pool
    ? (msg: Msg) =>
        void pool.query(TENANT_EXISTS, [msg.subject.slice(msg.subject.lastIndexOf('.') + 1)]).then(
          () => msg.respond(EMPTY),
          (error: Error) => process.stderr.write(`echo-service: ${error.message}\n`),
        )
    : (msg: Msg) => void msg.respond(EMPTY);
  const nc = await connect({ servers, name: 'engram-bench-echo', noAsyncTraces: true });
  nc.subscribe(subject, { queue: 'q', callback: (_error, msg) => answer(msg) });
  await nc.flush();
  if (pool) await pool.query(TENANT_EXISTS, ['']);
  process.on('SIGTERM', () => void Promise.all([nc.drain(), pool?.end()]).finally(() => process.exit(0)));
  process.send?.('ready');
}

main().catch((error: unknown) => {
  process.stderr.write(`echo-service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
