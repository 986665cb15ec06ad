import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type PubAck } from '@nats-io/jetstream';
import { Client } from 'pg';
import { MessageStoredSchema, Streams, decodeMessage } from '@engram/contracts';
import {
  createScratchDatabase,
  startNatsServer,
  startService,
  waitFor,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';

/**
 * An agent runtime publishes 10,000 messages in turns for three tenants while the
 * ingest process is SIGKILLed twice and restarted. Afterwards every message is in
 * the transcript exactly once, in order within its conversation, counted once, and
 * announced once; and no tenant can read another's rows.
 */
const TOTAL_MESSAGES = 10_000;
const TENANTS = ['acme', 'globex', 'initech'] as const;
const CONVERSATIONS_PER_TENANT = 8;

interface PlannedTurn {
  readonly tenant: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly turnId: string;
  readonly messages: Array<{ role: string; content: string; createdAt?: string }>;
}

/** Deterministic: the same plan every run. */
function planTurns(): PlannedTurn[] {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const turns: PlannedTurn[] = [];
  const clock = Date.parse('2026-01-01T00:00:00Z');
  let count = 0;
  for (let t = 0; count < TOTAL_MESSAGES; t++) {
    const tenant = TENANTS[Math.floor(random() * TENANTS.length)]!;
    const conversation = Math.floor(random() * CONVERSATIONS_PER_TENANT);
    const size = Math.min(1 + Math.floor(random() * 5), TOTAL_MESSAGES - count);
    const sessionKey = `session-${conversation}`;
    const turnId = `${tenant}-turn-${t}`;
    const messages = Array.from({ length: size }, (_, i) => {
      const content = `${tenant}/${sessionKey}/${turnId}/${i}: ${'lorem ipsum dolor sit amet '.repeat(1 + Math.floor(random() * 8))}`;
      const role = i === 0 ? 'user' : i % 2 ? 'assistant' : 'tool';
      // acme's runtime dates its messages; the others leave it to the time JetStream received the turn.
      return tenant === 'acme'
        ? { role, content, createdAt: new Date(clock + (count + i) * 1000).toISOString() }
        : { role, content, ...(role === 'tool' ? { toolName: 'search' } : {}) };
    });
    count += size;
    turns.push({ tenant, agent: `agent-${conversation % 2}`, sessionKey, turnId, messages });
  }
  return turns;
}

describe('ingest end to end: exactly once through two SIGKILLs', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let ingest: ServiceProcess | undefined;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let admin: Client;
  const plan = planTurns();

  const env = () => ({ NATS_URL: nats.url, DATABASE_URL: db.appUrl, CONSUMER_BATCH_SIZE: '64' });
  const storedCount = async () => Number((await admin.query('SELECT count(*) FROM messages')).rows[0].count);

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('e2e')]);
    ingest = await startService('ingest', env());
    await ingest.waitUntilReady();
    nc = await connect({ servers: nats.url });
    js = jetstream(nc);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
  });

  afterAll(async () => {
    ingest?.kill('SIGTERM');
    await ingest?.exited;
    await admin?.end();
    await nc?.drain();
    await nats?.stop();
    await db?.drop();
  });

  async function killAndRestart(): Promise<{ storedAtKill: number }> {
    ingest!.kill('SIGKILL');
    expect(await ingest!.exited).toBe('SIGKILL');
    const storedAtKill = await storedCount();
    ingest = await startService('ingest', env());
    await ingest.waitUntilReady();
    return { storedAtKill };
  }

  it('stores all 10,000 messages exactly once, in order, isolated per tenant', async () => {
    const kills: Array<{ storedAtKill: number }> = [];
    const killAt = [Math.floor(plan.length * 0.3), Math.floor(plan.length * 0.65)];
    const inFlight: Array<Promise<PubAck>> = [];
    for (let i = 0; i < plan.length; i++) {
      const turn = plan[i]!;
      if (killAt.includes(i)) {
        // Let ingest get busy with what is already published, then kill it mid-stream.
        await Promise.all(inFlight.splice(0));
        await waitFor('ingest busy', async () => (await storedCount()) > 0, 10_000, 20);
        kills.push(await killAndRestart());
      }
      inFlight.push(
        js.publish(
          `mem.turn.${turn.tenant}.${turn.agent}`,
          JSON.stringify({ turnId: turn.turnId, sessionKey: turn.sessionKey, messages: turn.messages }),
          { msgID: turn.turnId },
        ),
      );
      if (inFlight.length >= 100) await Promise.all(inFlight.splice(0));
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5)); // a runtime's pace, not a bulk load
    }
    await Promise.all(inFlight);

    await waitFor('every message stored', async () => (await storedCount()) >= TOTAL_MESSAGES, 90_000, 250);
    // Killed mid-stream: work was done before each kill, and work remained after it.
    for (const { storedAtKill } of kills) {
      expect(storedAtKill).toBeGreaterThan(0);
      expect(storedAtKill).toBeLessThan(TOTAL_MESSAGES);
    }
    expect(kills).toHaveLength(2);

    // Exactly once: no more rows than messages, every planned message present, no natural key twice.
    expect(await storedCount()).toBe(TOTAL_MESSAGES);
    const duplicates = await admin.query(
      'SELECT conversation_id, turn_id, position FROM messages GROUP BY 1, 2, 3 HAVING count(*) > 1',
    );
    expect(duplicates.rowCount).toBe(0);

    // In order within each conversation, exactly as the runtime published it.
    const expected = new Map<string, string[]>();
    for (const turn of plan) {
      const key = `${turn.tenant}/${turn.agent}/${turn.sessionKey}`;
      expected.set(key, [...(expected.get(key) ?? []), ...turn.messages.map((m) => m.content)]);
    }
    const actual = await admin.query<{ key: string; contents: string[]; counted: number }>(
      `SELECT c.tenant_id || '/' || c.agent || '/' || c.session_key AS key, c.message_count AS counted,
              array_agg(m.content ORDER BY m.created_at, m.stream_seq, m.position) AS contents
         FROM conversations c JOIN messages m ON m.conversation_id = c.id
        GROUP BY c.id`,
    );
    expect(actual.rows).toHaveLength(expected.size);
    for (const row of actual.rows) {
      expect(row.contents).toEqual(expected.get(row.key));
      expect(row.counted).toBe(row.contents.length); // counted once, despite redeliveries
    }

    // Announced once per turn (JetStream dropped the republished duplicates).
    const jsm = await jetstreamManager(nc);
    await waitFor(
      'every turn announced',
      async () => (await jsm.streams.info(Streams.events.name)).state.messages >= plan.length,
      30_000,
    );
    const announced = new Map<string, number>();
    const events = await jsm.streams.info(Streams.events.name);
    for (let seq = events.state.first_seq; seq <= events.state.last_seq; seq++) {
      const stored = decodeMessage(
        MessageStoredSchema,
        (await jsm.streams.getMessage(Streams.events.name, { seq }))!.data,
        { strict: false },
      );
      announced.set(stored.turnId, (announced.get(stored.turnId) ?? 0) + 1);
    }
    expect(announced.size).toBe(plan.length);
    expect([...announced.values()].every((n) => n === 1)).toBe(true);

    // Each tenant, through the services' own role, sees its own rows and nothing else.
    const app = new Client({ connectionString: db.appUrl });
    await app.connect();
    try {
      expect(Number((await app.query('SELECT count(*) FROM messages')).rows[0].count)).toBe(0);
      for (const tenant of TENANTS) {
        const own = plan.filter((t) => t.tenant === tenant).reduce((n, t) => n + t.messages.length, 0);
        await app.query('BEGIN');
        await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenant]);
        const rows = await app.query<{ tenant_id: string; n: string }>(
          'SELECT tenant_id, count(*) AS n FROM messages GROUP BY tenant_id',
        );
        const conversations = await app.query<{ tenant_id: string }>(
          'SELECT DISTINCT tenant_id FROM conversations',
        );
        await app.query('COMMIT');
        expect(rows.rows).toEqual([{ tenant_id: tenant, n: String(own) }]);
        expect(conversations.rows).toEqual([{ tenant_id: tenant }]);
      }
    } finally {
      await app.end();
    }
  }, 240_000);
});
