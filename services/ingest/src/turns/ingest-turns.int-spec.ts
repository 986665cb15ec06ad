import type { INestApplication } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Client } from 'pg';
import {
  DeadLetterSchema,
  FactUpsertedSchema,
  MessageStoredSchema,
  Rpcs,
  Streams,
  Subjects,
  type DescMessage,
} from '@engram/contracts';
import { eventsOn, startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { fromJson } from '@bufbuild/protobuf';
import { TurnEventSchema } from '@engram/contracts';
import { RpcClient } from '@engram/messaging';
import { ROOT_CONTEXT } from '@engram/telemetry';
import { loadIngestConfig } from '../ingest.config';
import { IngestTurnsUseCase } from './ingest-turns.use-case';
import { IngestModule } from '../ingest.module';

describe('ingest (real Postgres and NATS JetStream)', () => {
  let ingest: ServiceUnderTest;
  let app: INestApplication;
  let js: JetStreamClient;

  const sql = <T extends object>(text: string, params: unknown[] = []) => ingest.sql<T>(text, params);
  const eventsOf = async <S extends DescMessage>(stream: string, subject: string, schema: S) =>
    (await eventsOn(js, stream, subject, schema)).map((e) => e.event);

  const publish = (subject: string, turn: object | string, msgID?: string) =>
    js.publish(
      subject,
      typeof turn === 'string' ? turn : JSON.stringify(turn),
      msgID ? { msgID } : undefined,
    );

  beforeAll(async () => {
    ingest = await startServiceUnderTest({
      label: 'ingest',
      loadConfig: loadIngestConfig,
      module: (config) => IngestModule.register(config),
      config: { CONSUMER_LINGER_MS: '1', RETRY_BASE_DELAY_MS: '50' },
    });
    ({
      js,
      apps: [app],
    } = ingest);
  });

  afterAll(() => ingest?.stop());

  async function messagesOf(tenant: string, sessionKey: string) {
    return sql<{
      id: string;
      role: string;
      author: string | null;
      content: string;
      raw_content: string | null;
      tool_name: string | null;
      tool_args: unknown;
      tool_result: unknown;
      metadata: unknown;
      position: number;
      turn_id: string;
      created_at: Date;
    }>(
      `SELECT m.* FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = $1 AND c.session_key = $2 ORDER BY m.created_at, m.stream_seq, m.position`,
      [tenant, sessionKey],
    );
  }

  it('stores every message of a turn with its tool call and metadata, then announces the turn', async () => {
    await publish('mem.turn.acme.helper', {
      turnId: 'turn-1',
      sessionKey: 'chat-1',
      channel: 'slack',
      channelId: 'C42',
      title: 'Weather',
      occurredAt: '2026-02-22T10:00:00Z',
      messages: [
        { role: 'user', content: 'Weather in Lisbon?', author: 'Ada', metadata: { client: 'ios' } },
        {
          role: 'assistant',
          content: '',
          toolName: 'weather',
          toolArgs: { city: 'Lisbon' },
          toolCallId: 'call-1',
        },
        { role: 'tool', toolName: 'weather', toolResult: { tempC: 18, sky: 'clear' }, toolCallId: 'call-1' },
        { role: 'assistant', content: 'It is 18 °C and clear.' },
      ],
    });
    await waitFor('4 messages', async () => (await messagesOf('acme', 'chat-1')).length === 4, 10_000);
    const rows = await messagesOf('acme', 'chat-1');
    expect(rows.map((r) => [r.position, r.role, r.content])).toEqual([
      [0, 'user', 'Weather in Lisbon?'],
      [1, 'assistant', ''],
      [2, 'tool', ''],
      [3, 'assistant', 'It is 18 °C and clear.'],
    ]);
    expect(rows[0]).toMatchObject({ author: 'Ada', metadata: { client: 'ios' } });
    expect(rows[1]).toMatchObject({ tool_name: 'weather', tool_args: { city: 'Lisbon' } });
    expect(rows[2]).toMatchObject({ tool_result: { tempC: 18, sky: 'clear' } });
    expect(rows[0]!.created_at.toISOString()).toBe('2026-02-22T10:00:00.000Z');
    const [conversation] = await sql<{
      channel: string;
      channel_id: string;
      title: string;
      message_count: number;
      agent: string;
    }>(`SELECT * FROM conversations WHERE tenant_id = 'acme' AND session_key = 'chat-1'`);
    expect(conversation).toMatchObject({
      agent: 'helper',
      channel: 'slack',
      channel_id: 'C42',
      title: 'Weather',
      message_count: 4,
    });

    await waitFor(
      'stored event',
      async () =>
        (await eventsOf(Streams.events.name, 'mem.message.stored.acme', MessageStoredSchema)).length === 1,
      5000,
    );
    const [stored] = await eventsOf(Streams.events.name, 'mem.message.stored.acme', MessageStoredSchema);
    expect(stored).toMatchObject({
      tenantId: 'acme',
      agent: 'helper',
      turnId: 'turn-1',
      sessionKey: 'chat-1',
      memoryEnabled: true,
    });
    expect(stored!.messages.map((m) => m.id)).toEqual(rows.map((r) => String(r.id)));
    expect(stored!.messages[1]).toMatchObject({ toolName: 'weather', contentEmpty: true });
  });

  it('adds nothing when the same turn is published again, and announces it only once', async () => {
    const turn = {
      turnId: 'turn-r',
      sessionKey: 'chat-r',
      messages: [
        { role: 'user', content: 'once' },
        { role: 'assistant', content: 'only once' },
      ],
    };
    await publish('mem.turn.acme.helper', turn, 'first');
    await waitFor('stored', async () => (await messagesOf('acme', 'chat-r')).length === 2, 10_000);
    await publish('mem.turn.acme.helper', turn, 'a-retry-with-another-msg-id');
    await publish('mem.turn.acme.helper', {
      turnId: 'turn-r2',
      sessionKey: 'chat-r',
      messages: [{ role: 'user', content: 'next' }],
    });
    await waitFor('next turn', async () => (await messagesOf('acme', 'chat-r')).length === 3, 10_000);
    const [conversation] = await sql<{ message_count: number }>(
      `SELECT message_count FROM conversations WHERE session_key = 'chat-r'`,
    );
    expect(conversation!.message_count).toBe(3);
    const stored = await eventsOf(Streams.events.name, 'mem.message.stored.acme', MessageStoredSchema);
    expect(stored.filter((e) => e.turnId === 'turn-r')).toHaveLength(1);
  });

  it('stores a long answer (tens of KB) once, whole, and full-text search finds its last words', async () => {
    const paragraph =
      'The nightly backup of the billing database finished after the retry logic was moved behind a feature flag. ';
    // ≈ 60 KB: past TOAST's threshold and compressed; the word to find comes last.
    const answer = `${paragraph.repeat(600)}Finally, the quokkas were migrated to Zanzibar.`;
    expect(answer.length).toBeGreaterThan(60_000);
    const turn = {
      turnId: 'long-1',
      sessionKey: 'chat-long',
      messages: [
        { role: 'user', content: 'Tell me everything about the backup.' },
        { role: 'assistant', content: answer },
      ],
    };
    await publish('mem.turn.acme.helper', turn, 'long-first');
    await waitFor('stored', async () => (await messagesOf('acme', 'chat-long')).length === 2, 10_000);
    await publish('mem.turn.acme.helper', turn, 'long-again-under-another-msg-id');
    await publish('mem.turn.acme.helper', {
      turnId: 'long-2',
      sessionKey: 'chat-long',
      messages: [{ role: 'user', content: 'thanks' }],
    });
    await waitFor('next turn', async () => (await messagesOf('acme', 'chat-long')).length === 3, 10_000);

    const rows = await messagesOf('acme', 'chat-long');
    expect(rows.filter((r) => r.turn_id === 'long-1').map((r) => r.content)).toEqual([
      'Tell me everything about the backup.',
      answer,
    ]);
    const found = await sql<{ turn_id: string; role: string }>(
      `SELECT turn_id, role FROM messages
        WHERE tenant_id = 'acme' AND tsv @@ websearch_to_tsquery('english', 'quokka zanzibar')`,
    );
    expect(found).toEqual([{ turn_id: 'long-1', role: 'assistant' }]);
    const [conversation] = await sql<{ message_count: number }>(
      `SELECT message_count FROM conversations WHERE session_key = 'chat-long'`,
    );
    expect(conversation!.message_count).toBe(3);
    const stored = await eventsOf(Streams.events.name, 'mem.message.stored.acme', MessageStoredSchema);
    expect(stored.filter((e) => e.turnId === 'long-1')).toHaveLength(1);
  });

  it('stores a turn once and counts it once when one batch holds it twice', async () => {
    const event = fromJson(TurnEventSchema, {
      turnId: 'twice',
      sessionKey: 'chat-twice',
      messages: [
        { role: 'assistant', content: 'a [MEMORY:sticky]The user has two cats.[/MEMORY]' },
        { role: 'user', content: 'b' },
      ],
    });
    const incoming = (seq: number) => ({
      event,
      envelope: { subject: 'mem.turn.initech.helper', streamSequence: seq, receivedAt: new Date() },
      traceContext: ROOT_CONTEXT,
    });
    const outcomes = await app.get(IngestTurnsUseCase).ingest([incoming(900_001), incoming(900_002)]);
    expect(outcomes).toEqual([{ kind: 'stored' }, { kind: 'stored' }]);
    expect(await messagesOf('initech', 'chat-twice')).toHaveLength(2);
    expect(await sql(`SELECT message_count FROM conversations WHERE session_key = 'chat-twice'`)).toEqual([
      { message_count: 2 },
    ]);
    expect(await sql(`SELECT content FROM facts WHERE content = 'The user has two cats.'`)).toHaveLength(1);
  });

  it('adds nothing for a redelivered turn already stored, and stores the new turn beside it', async () => {
    const incoming = (json: object, seq: number, redelivered: boolean) => ({
      event: fromJson(TurnEventSchema, json as never),
      envelope: { subject: 'mem.turn.initech.helper', streamSequence: seq, receivedAt: new Date() },
      traceContext: ROOT_CONTEXT,
      redelivered,
    });
    const first = {
      turnId: 'r-1',
      sessionKey: 'chat-redelivered',
      messages: [
        { role: 'user', content: 'Where is the invoice export?' },
        {
          role: 'assistant',
          content: 'It moved to the billing tab. [MEMORY:sticky]Invoices live in billing.[/MEMORY]',
        },
      ],
    };
    const useCase = app.get(IngestTurnsUseCase);
    expect(await useCase.ingest([incoming(first, 900_020, false)])).toEqual([{ kind: 'stored' }]);
    const before = await messagesOf('initech', 'chat-redelivered');

    // As after a crash between the commit and the ack: the same turn again, with one not stored yet.
    const second = {
      turnId: 'r-2',
      sessionKey: 'chat-redelivered',
      messages: [{ role: 'user', content: 'ok' }],
    };
    expect(await useCase.ingest([incoming(first, 900_020, true), incoming(second, 900_021, true)])).toEqual([
      { kind: 'stored' },
      { kind: 'stored' },
    ]);
    const after = await messagesOf('initech', 'chat-redelivered');
    expect(after.slice(0, 2)).toEqual(before);
    expect(after.map((m) => m.turn_id)).toEqual(['r-1', 'r-1', 'r-2']);
    expect(
      await sql(`SELECT message_count FROM conversations WHERE session_key = 'chat-redelivered'`),
    ).toEqual([{ message_count: 3 }]);
    expect(await sql(`SELECT content FROM facts WHERE content = 'Invoices live in billing.'`)).toHaveLength(
      1,
    );
    // The outbox publishes after the commit: wait for the later turn's event, then count the first's.
    let stored: Awaited<ReturnType<typeof eventsOf<typeof MessageStoredSchema>>> = [];
    await waitFor(
      'r-2 announced',
      async () => {
        stored = await eventsOf(Streams.events.name, 'mem.message.stored.initech', MessageStoredSchema);
        return stored.some((e) => e.turnId === 'r-2');
      },
      10_000,
    );
    const ofFirst = stored.filter((e) => e.turnId === 'r-1');
    expect(ofFirst).toHaveLength(1);
    expect(ofFirst[0]!.messages.map((m) => m.id)).toEqual(before.map((m) => m.id));
  });

  it('keeps what every turn of a batch says about a new conversation', async () => {
    const incoming = (json: object, seq: number) => ({
      event: fromJson(TurnEventSchema, json as never),
      envelope: { subject: 'mem.turn.initech.helper', streamSequence: seq, receivedAt: new Date() },
      traceContext: ROOT_CONTEXT,
    });
    await app.get(IngestTurnsUseCase).ingest([
      incoming(
        {
          turnId: 'a',
          sessionKey: 'chat-attrs',
          title: 'Trip planning',
          settings: { lang: 'en' },
          messages: [{ role: 'user', content: 'a' }],
        },
        900_010,
      ),
      incoming(
        {
          turnId: 'b',
          sessionKey: 'chat-attrs',
          channel: 'slack',
          settings: { tz: 'UTC' },
          messages: [{ role: 'user', content: 'b' }],
        },
        900_011,
      ),
    ]);
    expect(
      await sql(
        `SELECT title, channel, settings, message_count FROM conversations WHERE session_key = 'chat-attrs'`,
      ),
    ).toEqual([
      { title: 'Trip planning', channel: 'slack', settings: { lang: 'en', tz: 'UTC' }, message_count: 2 },
    ]);
  });

  it('dead-letters invalid turns with a clear reason and stores the turns behind them', async () => {
    await publish('mem.turn.acme.helper', '{"turnId": "broken", ');
    await publish('mem.turn.acme.helper', {
      turnId: 'no-session',
      messages: [{ role: 'user', content: 'x' }],
    });
    await publish('mem.turn.acme.helper', {
      turnId: 't',
      sessionKey: 's',
      messages: [{ role: 'robot', content: 'beep' }],
    });
    await publish('mem.turn.acme.helper', { turnId: 't', sessionKey: 's', messages: [], surprise: 1 });
    await publish('mem.turn.acme.helper', {
      turnId: 'fine',
      sessionKey: 'chat-after-bad',
      messages: [{ role: 'user', content: 'still here' }],
    });
    await waitFor(
      'valid turn stored',
      async () => (await messagesOf('acme', 'chat-after-bad')).length === 1,
      10_000,
    );
    await waitFor(
      '4 dead letters',
      async () =>
        (await eventsOf(Streams.deadLetters.name, Subjects.deadLetterWildcard, DeadLetterSchema)).length ===
        4,
      10_000,
    );
    const reasons = (
      await eventsOf(Streams.deadLetters.name, Subjects.deadLetterWildcard, DeadLetterSchema)
    ).map((l) => `${l.cause}: ${l.reason}`);
    expect(reasons).toHaveLength(4);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^invalid: does not decode as memory\.v1\.TurnEvent/),
        'invalid: invalid turn: sessionKey: sessionKey is required',
        'invalid: invalid turn: messages[0].role: role must be one of user, assistant, system, tool',
        expect.stringMatching(/^invalid: does not decode as memory\.v1\.TurnEvent: .*surprise/),
      ]),
    );
  });

  it('turns memory tags into facts and state, hides them from users and keeps the raw text', async () => {
    await publish('mem.turn.acme.helper', {
      turnId: 'tags-1',
      sessionKey: 'chat-tags',
      messages: [
        { role: 'user', content: 'Call me Ada. I like dark mode.' },
        {
          role: 'assistant',
          content:
            'Sure, Ada. [MEMORY:sticky]The user is called Ada.[/MEMORY] [MEMORY:user_preference]The user prefers dark mode.[/MEMORY][STATE:theme]dark[/STATE]',
          createdAt: '2026-03-01T09:00:00Z',
        },
      ],
    });
    await waitFor(
      'facts',
      async () => (await sql(`SELECT id FROM facts WHERE tenant_id = 'acme'`)).length === 2,
      10_000,
    );
    const [assistant] = (await messagesOf('acme', 'chat-tags')).filter((m) => m.role === 'assistant');
    expect(assistant!.content).toBe('Sure, Ada.');
    expect(assistant!.raw_content).toContain('[MEMORY:sticky]The user is called Ada.[/MEMORY]');
    const facts = await sql<{
      content: string;
      category: string;
      lifetime: string;
      importance: number;
      expires_at: Date | null;
      source_message_ids: string[];
    }>(`SELECT * FROM facts WHERE tenant_id = 'acme' ORDER BY id`);
    expect(
      facts.map((f) => [f.content, f.category, f.lifetime, f.expires_at?.toISOString() ?? null]),
    ).toEqual([
      ['The user is called Ada.', 'fact', 'sticky', null],
      ['The user prefers dark mode.', 'preference', 'user_preference', '2026-05-30T09:00:00.000Z'],
    ]);
    expect(facts[0]!.source_message_ids).toEqual([String(assistant!.id)]);
    expect(await sql(`SELECT agent, key, value FROM state WHERE tenant_id = 'acme'`)).toEqual([
      { agent: 'helper', key: 'theme', value: 'dark' },
    ]);
    await waitFor(
      'fact events',
      async () =>
        (await eventsOf(Streams.events.name, 'mem.fact.upserted.acme', FactUpsertedSchema)).length === 2,
      5000,
    );
  });

  it('does not store a fact again when an active fact of the same agent already says it, but renews it', async () => {
    await publish('mem.turn.acme.helper', {
      turnId: 'tags-2',
      sessionKey: 'chat-tags',
      messages: [
        {
          role: 'assistant',
          content:
            'Noted. [MEMORY:user_preference]User prefers dark mode![/MEMORY] [MEMORY:user_preference]The user prefers dark mode in the terminal and in the editor.[/MEMORY]',
          createdAt: '2026-04-01T09:00:00Z',
        },
      ],
    });
    await publish('mem.turn.acme.other-agent', {
      turnId: 'tags-3',
      sessionKey: 'chat-tags-other',
      messages: [
        { role: 'assistant', content: 'ok [MEMORY:user_preference]The user prefers dark mode.[/MEMORY]' },
      ],
    });
    await waitFor(
      'other agent fact',
      async () => (await sql(`SELECT id FROM facts WHERE agent = 'other-agent'`)).length === 1,
      10_000,
    );
    await waitFor(
      'second turn stored',
      async () => (await messagesOf('acme', 'chat-tags')).length === 3,
      10_000,
    );
    const helperFacts = await sql<{ content: string; expires_at: Date | null }>(
      `SELECT content, expires_at FROM facts WHERE tenant_id = 'acme' AND agent = 'helper' ORDER BY id`,
    );
    expect(helperFacts.map((f) => f.content)).toEqual([
      'The user is called Ada.',
      'The user prefers dark mode.',
      'The user prefers dark mode in the terminal and in the editor.',
    ]);
    // Restated on 2026-04-01: served for 90 days from then.
    expect(helperFacts[1]!.expires_at?.toISOString()).toBe('2026-06-30T09:00:00.000Z');
  });

  it('keeps the newest state when an older turn arrives late', async () => {
    await publish('mem.turn.acme.helper', {
      turnId: 'st-new',
      sessionKey: 'chat-st',
      messages: [
        { role: 'assistant', content: '[STATE:project]engram[/STATE]', createdAt: '2026-05-02T00:00:00Z' },
      ],
    });
    await waitFor(
      'new state',
      async () => (await sql(`SELECT 1 FROM state WHERE key = 'project'`)).length === 1,
      10_000,
    );
    await publish('mem.turn.acme.helper', {
      turnId: 'st-old',
      sessionKey: 'chat-st',
      messages: [
        { role: 'assistant', content: '[STATE:project]old-thing[/STATE]', createdAt: '2026-05-01T00:00:00Z' },
      ],
    });
    await waitFor('old turn stored', async () => (await messagesOf('acme', 'chat-st')).length === 2, 10_000);
    expect(await sql(`SELECT value FROM state WHERE key = 'project'`)).toEqual([{ value: 'engram' }]);
  });

  it('refuses a tenant settings set that sets nothing, naming the field, and changes nothing', async () => {
    const failure = await app
      .get(RpcClient)
      .call(Rpcs.tenantSettingsUpdate, {}, { tenantId: 'unset' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'memoryEnabled', description: expect.stringMatching(/required/) }],
      },
    });
    expect(await sql(`SELECT * FROM tenants WHERE tenant_id = 'unset'`)).toEqual([]);
  });

  it('keeps the transcript but derives nothing when the tenant switched memory off', async () => {
    const { rpc } = ingest;
    expect(await rpc.call(Rpcs.tenantSettingsGet, {}, { tenantId: 'quiet' })).toMatchObject({
      memoryEnabled: true,
    });
    expect(
      await rpc.call(Rpcs.tenantSettingsUpdate, { memoryEnabled: false }, { tenantId: 'quiet' }),
    ).toMatchObject({ tenantId: 'quiet', memoryEnabled: false });
    await publish('mem.turn.quiet.helper', {
      turnId: 'q-1',
      sessionKey: 'chat-q',
      messages: [
        {
          role: 'assistant',
          content: 'Fine. [MEMORY:sticky]The user is secretive.[/MEMORY][STATE:mood]calm[/STATE]',
        },
      ],
    });
    await waitFor('stored', async () => (await messagesOf('quiet', 'chat-q')).length === 1, 10_000);
    expect((await messagesOf('quiet', 'chat-q'))[0]).toMatchObject({ content: 'Fine.' });
    expect(await sql(`SELECT * FROM facts WHERE tenant_id = 'quiet'`)).toEqual([]);
    expect(await sql(`SELECT * FROM state WHERE tenant_id = 'quiet'`)).toEqual([]);
    const stored = await eventsOf(Streams.events.name, 'mem.message.stored.quiet', MessageStoredSchema);
    expect(stored[0]).toMatchObject({ memoryEnabled: false });
  });

  it("indexes a conversation with its language once its text says which, and adds it to the tenant's", async () => {
    const languagesOf = () =>
      sql<{ turn_id: string; language: string; conversation: string | null; tenant: string }>(
        `SELECT m.turn_id, m.language::text AS language, c.language::text AS conversation, t.languages::text AS tenant
           FROM messages m JOIN conversations c ON c.id = m.conversation_id JOIN tenants t ON t.tenant_id = c.tenant_id
          WHERE c.tenant_id = 'roma' AND m.role = 'user' ORDER BY m.created_at, m.stream_seq`,
      );
    const say = (turnId: string, user: string, assistant: string) =>
      publish('mem.turn.roma.helper', {
        turnId,
        sessionKey: 'gatti',
        messages: [
          { role: 'user', content: user },
          { role: 'assistant', content: assistant },
        ],
      });
    await say('it-1', 'Ciao!', 'Ciao, dimmi.');
    await waitFor('the first turn', async () => (await languagesOf()).length === 1, 10_000);
    // Too little text to tell: the default, and nothing decided yet.
    expect(await languagesOf()).toEqual([
      { turn_id: 'it-1', language: 'english', conversation: null, tenant: '{english}' },
    ]);
    await say(
      'it-2',
      'Ho comprato due gatti ieri al mercato: si chiamano Micio e Fufi, sono fratelli e dormono sempre insieme sul divano del salotto.',
      'Che bello! Ricordati di portarli dal veterinario per le vaccinazioni prima della fine del mese prossimo, e di comprare una cuccia comoda.',
    );
    await say('it-3', 'Ok, grazie!', 'Prego.');
    await waitFor('three turns', async () => (await languagesOf()).length === 3, 10_000);
    expect(await languagesOf()).toEqual([
      { turn_id: 'it-1', language: 'english', conversation: 'italian', tenant: '{english,italian}' },
      { turn_id: 'it-2', language: 'italian', conversation: 'italian', tenant: '{english,italian}' },
      { turn_id: 'it-3', language: 'italian', conversation: 'italian', tenant: '{english,italian}' },
    ]);
    const found = await sql<{ turn_id: string }>(
      `SELECT turn_id FROM messages WHERE tenant_id = 'roma' AND tsv @@ to_tsquery('italian', 'gatto')`,
    );
    expect(found).toEqual([{ turn_id: 'it-2' }]);
    // English stays English: the long turn of another test decided its conversation so.
    const [english] = await sql<{ language: string }>(
      `SELECT language::text FROM conversations WHERE tenant_id = 'acme' AND session_key = 'chat-long'`,
    );
    expect(english!.language).toBe('english');
  });

  it('isolates tenants with row-level security for the role the services use', async () => {
    await publish('mem.turn.globex.helper', {
      turnId: 'g-1',
      sessionKey: 'chat-g',
      messages: [{ role: 'user', content: 'globex secret' }],
    });
    await waitFor('globex stored', async () => (await messagesOf('globex', 'chat-g')).length === 1, 10_000);
    const appClient = new Client({ connectionString: ingest.db.appUrl });
    await appClient.connect();
    try {
      expect((await appClient.query('SELECT count(*)::int AS n FROM messages')).rows[0].n).toBe(0);
      await appClient.query('BEGIN');
      await appClient.query(`SELECT set_config('engram.tenant_id', 'acme', true)`);
      const seen = await appClient.query<{ tenant_id: string; content: string }>(
        'SELECT tenant_id, content FROM messages',
      );
      expect(seen.rows.length).toBeGreaterThan(0);
      expect(new Set(seen.rows.map((r) => r.tenant_id))).toEqual(new Set(['acme']));
      expect(seen.rows.some((r) => r.content === 'globex secret')).toBe(false);
      await expect(appClient.query(`INSERT INTO tenants (tenant_id) VALUES ('globex2')`)).rejects.toThrow(
        /row-level security/,
      );
      await appClient.query('ROLLBACK');
      await appClient.query('BEGIN');
      await appClient.query(`SELECT set_config('engram.tenant_id', 'acme', true)`);
      await expect(
        appClient.query(`UPDATE messages SET content = 'rewritten' WHERE role = 'user'`),
      ).rejects.toThrow(/immutable/);
      await appClient.query('ROLLBACK');
    } finally {
      await appClient.end();
    }
  });
});
