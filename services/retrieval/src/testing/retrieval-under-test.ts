import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { listenOnJetStream, RpcClient } from '@engram/messaging';
import { createScratchDatabase, startNatsServer, type NatsServerHandle, type ScratchDatabase } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/** Retrieval running in-process on a private NATS and a scratch database, with a superuser connection for seeding and checking. */
export interface RetrievalUnderTest {
  readonly nats: NatsServerHandle;
  readonly db: ScratchDatabase;
  readonly admin: Client;
  readonly app: INestApplication;
  readonly rpc: RpcClient;
  /** Closes the app, then the connections, NATS and the database. */
  stop(): Promise<void>;
}

/**
 * Starts NATS and a scratch database, runs `seed` (before the app starts: what it seeds
 * is there from the first request), then starts retrieval as the app role.
 */
export async function startRetrieval(
  label: string,
  seed: (admin: Client, env: { nats: NatsServerHandle; db: ScratchDatabase }) => Promise<void> = async () => {},
): Promise<RetrievalUnderTest> {
  const [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase(label)]);
  const admin = new Client({ connectionString: db.adminUrl });
  await admin.connect();
  await seed(admin, { nats, db });
  const app = await NestFactory.create(
    RetrievalModule.register(loadRetrievalConfig({ NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: 'silent' })),
    { logger: false },
  );
  await listenOnJetStream(app);
  return {
    nats,
    db,
    admin,
    app,
    rpc: app.get(RpcClient),
    async stop() {
      await app.close();
      await admin.end();
      await nats.stop();
      await db.drop();
    },
  };
}
