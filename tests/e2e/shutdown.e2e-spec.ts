import { Client } from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { DEFAULT_HTTP_PORTS, type ServiceName } from '@engram/config';
import { Consumers, Subjects } from '@engram/contracts';
import {
  createScratchDatabase,
  startNatsServer,
  startService,
  waitFor,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';

const SERVICES = Object.keys(DEFAULT_HTTP_PORTS) as ServiceName[];
const GRACE_MS = 2000;
/** The assertion is that a service exits at all: a loaded machine may be slow to get there. */
const MARGIN_MS = 8000;

/**
 * Shutdown always ends: every service, told to stop (SIGTERM) while its NATS server is gone
 * and not coming back, exits within its SHUTDOWN_GRACE_MS: its steps give up on what waits
 * for NATS (usually ending with 0), and a watchdog ends a shutdown still running when the
 * grace is over (with 1, saying so). The embedder is caught mid-work: a batch waiting for Gerty (which
 * is stopped, so it never answers) and sweeps (every second) waiting for NATS.
 */
describe('shutdown while a dependency is gone (every service as a process, real Postgres and NATS)', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let services: ServiceProcess[] = [];
  /** A second ingest, for the case of a Postgres that does not answer. */
  let writer: ServiceProcess;

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('shutdown')]);
    const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, SHUTDOWN_GRACE_MS: String(GRACE_MS) };
    [writer, ...services] = await Promise.all([
      startService('ingest', { ...env, OUTBOX_RELAY_INTERVAL_MS: '100' }),
      ...SERVICES.map((name) =>
        startService(name, name === 'embedder' ? { ...env, EMBEDDER_SWEEP_INTERVAL_MS: '1000' } : env),
      ),
    ]);
    await Promise.all([writer, ...services].map((service) => service.waitUntilReady(120_000)));
  }, 180_000);

  afterAll(async () => {
    const all = writer ? [writer, ...services] : services;
    for (const service of all) service.kill('SIGKILL');
    await Promise.all(all.map((service) => service.exited));
    await nats?.stop();
    await db?.drop();
  });

  const service = (name: ServiceName) => services.find((s) => s.name === name)!;

  /** How the service ended after SIGTERM: its exit code, or 'still running' past grace and margin. */
  async function stop(s: ServiceProcess): Promise<{ how: number | string; ms: number }> {
    const started = Date.now();
    s.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const how = await Promise.race([
      s.exited,
      new Promise<string>((resolve) => (timer = setTimeout(resolve, GRACE_MS + MARGIN_MS, 'still running'))),
    ]);
    clearTimeout(timer);
    return { how, ms: Date.now() - started };
  }

  /** Exit 0, or 1 from the watchdog that ends a shutdown still running at the end of the grace. */
  function expectExited(s: ServiceProcess, how: number | string): void {
    const byWatchdog = how === 1 && s.output().includes('shutdown did not finish within SHUTDOWN_GRACE_MS');
    if (how !== 0 && !byWatchdog) throw new Error(`${s.name} ended ${how}\n${s.output().slice(-3000)}`);
  }

  it('a writer exits within its grace while its Postgres does not answer', async () => {
    const admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      // Every outbox sweep (every 100 ms) now waits for the lock: the one in progress holds shutdown up.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { how, ms } = await stop(writer);
      console.log(`ingest with its outbox locked: ${how} after ${ms} ms`);
      expectExited(writer, how);
    } finally {
      await admin.query('ROLLBACK');
      await admin.end();
    }
  });

  it('every service exits within its grace after SIGTERM while NATS is gone', async () => {
    // A turn whose vectors the embedder asks a Gerty that does not answer: its batch is in flight.
    service('gerty').kill('SIGSTOP');
    const nc = await connect({ servers: nats.url });
    await jetstream(nc).publish(
      Subjects.turn('acme', 'helper'),
      JSON.stringify({ turnId: 't1', sessionKey: 's', messages: [{ role: 'user', content: 'Hello there' }] }),
      { msgID: 't1' },
    );
    const jsm = await jetstreamManager(nc);
    const spec = Consumers.embedderMessages;
    await waitFor(
      'the embedder holding the stored turn',
      async () => (await jsm.consumers.info(spec.stream.name, spec.durable)).num_ack_pending > 0,
      30_000,
    );
    await nc.close();

    await nats.stop();
    service('gerty').kill('SIGCONT');
    // Long enough for the embedder's next sweep to be waiting on NATS too.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const outcomes = await Promise.all(services.map(async (s) => ({ s, ...(await stop(s)) })));
    console.log(outcomes.map(({ s, how, ms }) => `${s.name}: ${how} after ${ms} ms`).join('\n'));
    for (const { s, how } of outcomes) expectExited(s, how);
  });
});
