#!/usr/bin/env node
/**
 * The bare bus, as its own process (bench:search's echo row): a NATS micro-style endpoint — a
 * queue subscription that answers every request at once with an empty reply — and nothing else:
 * no decoding, no validation, no tracing, no logging. What an RPC costs when the service does no
 * work. Arguments: the NATS URL and the subject to answer (wildcards allowed). It says "ready" to
 * its parent (IPC) once the subscription is registered with the server, and drains on SIGTERM.
 *
 * (Not @nats-io/services: its only release is a pre-release built on nats-core 3.0.0-50, so it
 * would bring a second, older client; its endpoints are this same queue subscription.)
 */
import { connect } from '@nats-io/transport-node';

const EMPTY = new Uint8Array(0);

async function main(): Promise<void> {
  const [servers, subject] = process.argv.slice(2);
  if (!servers || !subject) throw new Error('usage: echo-service <nats-url> <subject>');
  const nc = await connect({ servers, name: 'engram-bench-echo', noAsyncTraces: true });
  nc.subscribe(subject, { queue: 'q', callback: (_error, msg) => void msg.respond(EMPTY) });
  await nc.flush();
  process.on('SIGTERM', () => void nc.drain().finally(() => process.exit(0)));
  process.send?.('ready');
}

main().catch((error: unknown) => {
  process.stderr.write(`echo-service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
