import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { decodeMessage } from '@engram/contracts';
import { listenOnJetStream } from '@engram/messaging';
import {
  createScratchDatabase,
  startNatsServer,
  startService,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';
import { loadCompactorConfig } from '../compactor.config';
import { CompactorModule } from '../compactor.module';

export interface CompactorOptions {
  /** Compactor settings over the test defaults (silent logs, retries 100–500 ms). */
  readonly config?: Record<string, string>;
  /** Compactor apps on the same consumers (default 1). */
  readonly replicas?: number;
  /** Gerty's extra environment (e.g. a remote model). */
  readonly gertyEnv?: Record<string, string>;
  /** Runs before any service starts. */
  readonly seed?: (admin: Client) => Promise<void>;
}

/** The compactor in-process (one app per replica) with the real ingest and Gerty as processes, on a private NATS and a scratch database. */
export interface CompactorUnderTest {
  readonly nats: NatsServerHandle;
  readonly db: ScratchDatabase;
  /** A superuser connection, for seeding and checking. */
  readonly admin: Client;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly apps: INestApplication[];
  sql<T extends object>(text: string, params?: unknown[]): Promise<T[]>;
  /** The `n` column of the first row, as a number. */
  count(text: string, params?: unknown[]): Promise<number>;
  /** Closes the apps and services, then the connections, NATS and the database. */
  stop(): Promise<void>;
}

export async function startCompactor(
  label: string,
  options: CompactorOptions = {},
): Promise<CompactorUnderTest> {
  const [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase(label)]);
  const admin = new Client({ connectionString: db.adminUrl });
  await admin.connect();
  await options.seed?.(admin);
  const nc = await connect({ servers: nats.url });
  const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl };
  const services: ServiceProcess[] = [
    await startService('ingest', env),
    await startService('gerty', { ...env, ...options.gertyEnv }),
  ];
  await Promise.all(services.map((s) => s.waitUntilReady()));
  const config = loadCompactorConfig({
    ...env,
    LOG_LEVEL: 'silent',
    RETRY_BASE_DELAY_MS: '100',
    RETRY_MAX_DELAY_MS: '500',
    ...options.config,
  });
  const apps: INestApplication[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const app = await NestFactory.create(CompactorModule.register(config), { logger: false });
    await listenOnJetStream(app);
    apps.push(app);
  }
  const sql = async <T extends object>(text: string, params: unknown[] = []) =>
    (await admin.query(text, params)).rows as T[];
  return {
    nats,
    db,
    admin,
    nc,
    js: jetstream(nc),
    apps,
    sql,
    count: async (text, params = []) => Number((await sql<{ n: string }>(text, params))[0]!.n),
    async stop() {
      for (const app of apps) await app.close();
      for (const service of services) {
        service.kill();
        await service.exited;
      }
      await nc.drain();
      await admin.end();
      await nats.stop();
      await db.drop();
    },
  };
}

/** Every event on a stream under a subject so far (from the start), with its msg id. */
export async function eventsOn<S extends DescMessage>(
  js: JetStreamClient,
  stream: string,
  subject: string,
  schema: S,
): Promise<Array<{ event: MessageShape<S>; msgId: string }>> {
  const consumer = await js.consumers.get(stream, { filter_subjects: subject });
  const out: Array<{ event: MessageShape<S>; msgId: string }> = [];
  for (;;) {
    let got = 0;
    for await (const m of await consumer.fetch({ max_messages: 500, expires: 1000 })) {
      got++;
      out.push({
        event: decodeMessage(schema, m.data, { strict: false }),
        msgId: m.headers?.get('Nats-Msg-Id') ?? '',
      });
      if (m.info.pending === 0) return out;
    }
    if (got === 0) return out;
  }
}
