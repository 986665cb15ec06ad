import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Client } from 'pg';
import {
  DeadLetterSchema,
  Streams,
  Subjects,
  ToolSynthesisWorkSchema,
  decodeMessage,
  encodeMessage,
} from '@engram/contracts';
import {
  createScratchDatabase,
  startFakeOpenAiServer,
  startNatsServer,
  startService,
  waitFor,
  type FakeOpenAiServer,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';

/**
 * Tool synthesis with a language model (played by a small OpenAI-protocol
 * server): repeated work items for one message coalesce into one description, and a
 * model that keeps refusing gets exactly 3 attempts before the item is dead-lettered.
 */
describe('tool synthesis end to end', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let llm: FakeOpenAiServer;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let admin: Client;
  const services: ServiceProcess[] = [];

  const env = () => ({
    NATS_URL: nats.url,
    DATABASE_URL: db.appUrl,
    GERTY_OPENAI_BASE_URL: `${llm.url}/v1`,
    GERTY_OPENAI_CHAT_MODEL: 'tiny-describer',
    RETRY_BASE_DELAY_MS: '100',
    RETRY_MAX_DELAY_MS: '200',
  });

  async function toolCall(turnId: string): Promise<string> {
    await jetstream(nc).publish(
      'mem.turn.acme.helper',
      JSON.stringify({
        turnId,
        sessionKey: 'tools',
        messages: [
          { role: 'assistant', content: '', toolName: 'create_ticket', toolArgs: { title: turnId } },
        ],
      }),
    );
    let id = '';
    await waitFor(
      'stored',
      async () => {
        const rows = (await admin.query(`SELECT id FROM messages WHERE turn_id = $1`, [turnId])).rows;
        id = rows[0]?.id ? String(rows[0].id) : '';
        return id !== '';
      },
      10_000,
    );
    return id;
  }

  const describeRequests = () => llm.requests.filter((r) => r.path.endsWith('/chat/completions'));

  beforeAll(async () => {
    [nats, db, llm] = await Promise.all([
      startNatsServer(),
      createScratchDatabase('tool-synthesis'),
      startFakeOpenAiServer(),
    ]);
    nc = await connect({ servers: nats.url });
    jsm = await jetstreamManager(nc);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    for (const name of ['ingest', 'gerty']) {
      const service = await startService(name, env());
      await service.waitUntilReady();
      services.push(service);
    }
  });

  afterAll(async () => {
    for (const service of services) {
      service.kill();
      await service.exited;
    }
    await admin?.end();
    await nc?.drain();
    await llm?.close();
    await nats?.stop();
    await db?.drop();
  });

  it('describes a tool call once, however often it was enqueued', async () => {
    const messageId = await toolCall('coalesce');
    // Before any embedder runs: the same work item three times (a redelivery, a backfill …).
    for (const msgID of ['a', 'b', 'c']) {
      await jetstream(nc).publish(
        Subjects.toolSynthesis('acme', messageId),
        encodeMessage(ToolSynthesisWorkSchema, { tenantId: 'acme', messageId }),
        { msgID },
      );
    }
    const pending = await jsm.streams.info(Streams.work.name, {
      subjects_filter: Subjects.toolSynthesis('acme', messageId),
    });
    expect(pending.state.subjects?.[Subjects.toolSynthesis('acme', messageId)]).toBe(1);

    llm.defaultContent = 'Created a ticket titled "coalesce".';
    const embedder = await startService('embedder', env());
    services.push(embedder);
    await embedder.waitUntilReady();
    const described = `SELECT m.content, m.content_synthesised, e.model FROM messages m
                         JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id WHERE m.id = $1`;
    await waitFor(
      'described and embedded',
      async () => (await admin.query(described, [messageId])).rowCount === 1,
      15_000,
    );
    const [row] = (await admin.query(described, [messageId])).rows;
    expect(row).toEqual({
      content: 'Created a ticket titled "coalesce".',
      content_synthesised: true,
      model: 'engram-local-glove-sif-100d-v1',
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(describeRequests()).toHaveLength(1);
    const prompt = JSON.stringify(describeRequests()[0]!.body);
    expect(prompt).toContain('create_ticket');
    expect(prompt).toContain('tiny-describer');
  });

  it('gives a refusing model exactly 3 attempts, then dead-letters the item with the reason', async () => {
    const before = describeRequests().length;
    llm.script(
      ...Array.from({ length: 10 }, () => ({
        kind: 'status' as const,
        status: 400,
        message: 'this model cannot describe tools',
      })),
    );
    const messageId = await toolCall('refused');
    await waitFor(
      'dead letter',
      async () => {
        const info = await jsm.streams.info(Streams.deadLetters.name).catch(() => null);
        return (info?.state.messages ?? 0) > 0;
      },
      20_000,
    );
    const stored = await jsm.streams.getMessage(Streams.deadLetters.name, {
      last_by_subj: Subjects.deadLetter(Streams.work.name, 'embedder-toolsynth'),
    });
    const letter = decodeMessage(DeadLetterSchema, stored!.data, { strict: false });
    expect(letter).toMatchObject({
      cause: 'exhausted',
      deliveries: 3,
      originalSubject: Subjects.toolSynthesis('acme', messageId),
    });
    expect(letter.reason).toContain('this model cannot describe tools');
    expect(describeRequests().length - before).toBe(3);
    // The call stays as it was stored: nothing invented, nothing lost.
    const [row] = (
      await admin.query(`SELECT content, content_synthesised, tool_name FROM messages WHERE id = $1`, [
        messageId,
      ])
    ).rows;
    expect(row).toEqual({ content: '', content_synthesised: false, tool_name: 'create_ticket' });
  });
});
