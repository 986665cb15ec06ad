import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import { decodeMessage, FactUpsertedSchema, Streams, Subjects, type FactUpserted } from '@engram/contracts';
import { listenOnJetStream, RpcClient } from '@engram/messaging';
import {
  createScratchDatabase,
  startNatsServer,
  type NatsServerHandle,
  type ScratchDatabase,
} from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/** Retrieval running in-process on a private NATS and a scratch database, with a superuser connection for seeding and checking. */
export interface RetrievalUnderTest {
  readonly nats: NatsServerHandle;
  readonly db: ScratchDatabase;
  readonly admin: Client;
  readonly app: INestApplication;
  readonly rpc: RpcClient;
  /** A NATS connection of the test's own (raw requests), and JetStream over it to read and publish events. */
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  /** Closes the app, then the connections, NATS and the database. */
  stop(): Promise<void>;
}

/**
 * Starts NATS and a scratch database, runs `seed` (before the app starts: what it seeds
 * is there from the first request), then starts retrieval as the app role.
 */
export async function startRetrieval(
  label: string,
  seed: (
    admin: Client,
    env: { nats: NatsServerHandle; db: ScratchDatabase },
  ) => Promise<void> = async () => {},
): Promise<RetrievalUnderTest> {
  const [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase(label)]);
  const admin = new Client({ connectionString: db.adminUrl });
  await admin.connect();
  await seed(admin, { nats, db });
  const app = await NestFactory.create(
    RetrievalModule.register(
      loadRetrievalConfig({ NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: 'silent' }),
    ),
    { logger: false },
  );
  await listenOnJetStream(app);
  const nc = await connect({ servers: nats.url });
  return {
    nats,
    db,
    admin,
    app,
    rpc: app.get(RpcClient),
    nc,
    js: jetstream(nc),
    async stop() {
      await app.close();
      await nc.drain();
      await admin.end();
      await nats.stop();
      await db.drop();
    },
  };
}

/** The mem.fact.upserted events published for a tenant so far, with their msg ids. */
export async function factEvents(
  js: JetStreamClient,
  tenantId: string,
): Promise<Array<{ event: FactUpserted; msgId: string }>> {
  const consumer = await js.consumers.get(Streams.events.name, {
    filter_subjects: Subjects.factUpserted(tenantId),
  });
  const out: Array<{ event: FactUpserted; msgId: string }> = [];
  for await (const m of await consumer.fetch({ max_messages: 1000, expires: 1000 })) {
    out.push({
      event: decodeMessage(FactUpsertedSchema, m.data, { strict: false }),
      msgId: m.headers?.get('Nats-Msg-Id') ?? '',
    });
    if (m.info.pending === 0) break;
  }
  return out;
}
