import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { listenOnJetStream, RpcClient } from '@engram/messaging';
import {
  createScratchDatabase,
  startNatsServer,
  type NatsServerHandle,
  type ScratchDatabase,
} from '@engram/testing';
import { loadContextBuilderConfig } from '../context-builder.config';
import { ContextBuilderModule } from '../context-builder.module';

/** Context-builder running in-process on a private NATS and a scratch database, with a superuser connection for seeding and checking. */
export interface ContextBuilderUnderTest {
  readonly nats: NatsServerHandle;
  readonly db: ScratchDatabase;
  readonly admin: Client;
  readonly app: INestApplication;
  readonly rpc: RpcClient;
  /** Closes the app, then the connection, NATS and the database. */
  stop(): Promise<void>;
}

/** Starts NATS and a scratch database, runs `seed`, then starts context-builder as the app role. */
export async function startContextBuilder(
  label: string,
  seed: (admin: Client) => Promise<void> = async () => {},
): Promise<ContextBuilderUnderTest> {
  const [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase(label)]);
  const admin = new Client({ connectionString: db.adminUrl });
  await admin.connect();
  await seed(admin);
  const app = await NestFactory.create(
    ContextBuilderModule.register(
      loadContextBuilderConfig({ NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: 'silent' }),
    ),
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
