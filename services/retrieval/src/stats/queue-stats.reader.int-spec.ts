import { spawn, type ChildProcess } from 'node:child_process';
import { Logger } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { messagingOptionsFrom, NatsClient } from '@engram/messaging';
import { ReadinessRegistry, ShutdownBudget } from '@engram/platform';
import { freePort, natsServerBinary, waitFor } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { QueueStatsReader } from './queue-stats.reader';

describe('QueueStatsReader against a NATS server without JetStream', () => {
  let server: ChildProcess;
  let nats: NatsClient;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    const port = await freePort();
    server = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' }); // no -js
    const url = `nats://127.0.0.1:${port}`;
    await waitFor(
      'nats-server',
      async () => {
        await (await connect({ servers: url })).close();
        return true;
      },
      10_000,
      50,
    );
    nats = new NatsClient(
      messagingOptionsFrom('retrieval', loadRetrievalConfig({ NATS_URL: url })),
      new ReadinessRegistry(),
      new ShutdownBudget(),
    );
  });

  afterAll(async () => {
    await nats?.onApplicationShutdown();
    server?.kill('SIGTERM');
  });

  it('answers no queues (so stats still answer from the store) instead of failing, and quickly', async () => {
    const started = Date.now();
    await expect(new QueueStatsReader(nats).read()).resolves.toEqual({ queues: [], deadLetters: 0 });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
