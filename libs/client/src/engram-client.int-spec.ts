import {
  freePort,
  startNatsServer,
  startTestEnvironment,
  waitFor,
  type TestEnvironment,
} from '@engram/testing';
import { DEADLINE_HEADER as ENDPOINT_DEADLINE_HEADER } from '@engram/messaging';
import { timestampFromDate } from '@engram/contracts';
import { EngramClient } from './engram-client';
import { EngramInvalidArgumentError, EngramNotFoundError, EngramUnavailableError } from './errors';
import { withoutMemoryTags } from './memory-tags';
import { DEADLINE_HEADER } from './transports/nats.transport';

/** The SDK over NATS against ingest, retrieval and context-builder running as processes (built dist). */
describe('EngramClient over NATS (real services, Postgres and JetStream)', () => {
  let env: TestEnvironment;
  let acme: EngramClient;

  const turn = {
    turnId: 'turn-1',
    sessionKey: 'chat-7',
    messages: [
      { role: 'user', author: 'Ada', content: 'Hi! I am Ada. Please use metric units for the glacier trek.' },
      { role: 'assistant', content: 'Noted, Ada: kilometres and degrees Celsius from now on.' },
    ],
  };

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'client_nats',
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
    acme = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'concierge' });
  });

  afterAll(async () => {
    await acme?.close();
    await env?.stop();
  });

  const storedMessages = (tenant: string) =>
    env.count(
      `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = $1 AND c.agent = 'concierge' AND c.session_key = 'chat-7'`,
      [tenant],
    );

  it('publishes a turn once however often it is published with the same key, and finds it by search', async () => {
    const first = await acme.publishTurn(turn);
    const again = await acme.publishTurn(turn);

    expect(first).toMatchObject({ stream: 'TURNS', duplicate: false });
    expect(again).toEqual({ stream: 'TURNS', seq: first.seq, duplicate: true });
    await waitFor('the turn stored', async () => (await storedMessages('acme')) === 2, 15_000);

    const found = await acme.search({ query: 'glacier trek units' });
    expect(found.hits.map((h) => h.content)).toContain(turn.messages[0]!.content);
    expect(found.hits.every((h) => h.provenance?.agent === 'concierge')).toBe(true);

    const page = await acme.browse({ sessionKey: 'chat-7' });
    expect(page.messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
      `user: ${turn.messages[0]!.content}`,
      `assistant: ${turn.messages[1]!.content}`,
    ]);
    expect(await storedMessages('acme')).toBe(2);
  });

  it('gives the runtime the reply without its memory tags, exactly as ingest stores it', async () => {
    const reply =
      'Booked the hut for the 12th. [MEMORY:user_preference] Ada sleeps in huts, not tents. [/MEMORY]\n' +
      '[STATE:trek] Aletsch, 12 June [/STATE]\nAnything else , Ada?';
    await acme.publishTurn({
      turnId: 'tags-1',
      sessionKey: 'chat-tags',
      messages: [
        { role: 'user', author: 'Ada', content: 'Book the hut please.' },
        { role: 'assistant', content: reply },
      ],
    });
    const stored = async () => (await acme.browse({ sessionKey: 'chat-tags' })).messages;
    await waitFor('the tagged turn stored', async () => (await stored()).length === 2, 15_000);
    const shown = withoutMemoryTags(reply);
    expect(shown).toBe('Booked the hut for the 12th.\nAnything else, Ada?');
    expect((await stored())[1]!.content).toBe(shown);
  });

  it('searches as of a past moment: what was said after it is not found', async () => {
    await acme.publishTurn({
      turnId: 'turn-january',
      sessionKey: 'chat-8',
      occurredAt: timestampFromDate(new Date('2026-01-10T09:00:00Z')),
      messages: [{ role: 'user', author: 'Ada', content: 'The glacier trek is booked for March.' }],
    });
    await waitFor(
      'both turns stored',
      async () =>
        (await env.count(
          `SELECT count(*) AS n FROM messages WHERE tenant_id = 'acme' AND content LIKE '%glacier%'`,
        )) === 2,
      15_000,
    );
    const contents = (r: { hits: Array<{ content: string }> }) => r.hits.map((h) => h.content);
    const now = await acme.search({ query: 'glacier trek', recordAccess: false });
    expect(contents(now)).toEqual(
      expect.arrayContaining(['The glacier trek is booked for March.', turn.messages[0]!.content]),
    );
    const then = await acme.search({
      query: 'glacier trek',
      recordAccess: false,
      asOf: timestampFromDate(new Date('2026-01-10T10:00:00Z')),
    });
    expect(contents(then)).toEqual(['The glacier trek is booked for March.']);
  });

  it("keeps tenants apart: another tenant's client neither finds nor dedupes acme's turn", async () => {
    const globex = await EngramClient.connect({
      servers: env.nats.url,
      tenant: 'globex',
      agent: 'concierge',
    });
    try {
      await waitFor('the acme turn stored', async () => (await storedMessages('acme')) === 2, 15_000);
      await expect(globex.search({ query: 'glacier trek units' })).rejects.toThrow(
        new EngramNotFoundError('tenant globex has no memory'),
      );
      expect(await globex.publishTurn(turn)).toMatchObject({ duplicate: false });
      await waitFor('the globex turn stored', async () => (await storedMessages('globex')) === 2, 15_000);
      expect(await storedMessages('acme')).toBe(2);
    } finally {
      await globex.close();
    }
  });

  it("builds the next prompt from the agent's profile and the conversation", async () => {
    await acme.putAgent({ name: 'Rosa', personality: 'Warm and brief.', userName: 'Ada' });
    expect(await acme.getAgent()).toMatchObject({ agent: 'concierge', name: 'Rosa', userName: 'Ada' });

    await waitFor('the turn stored', async () => (await storedMessages('acme')) === 2, 15_000);
    const context = await acme.buildContext({
      sessionKey: 'chat-7',
      currentMessage: 'How cold is it up there?',
    });
    const layers = context.blocks.map((b) => b.layer);
    expect(layers[0]).toBe('identity');
    expect(layers).toContain('recent');
    expect(context.blocks.find((b) => b.layer === 'identity')!.text).toContain('Rosa');
    expect(context.totalTokens).toBeLessThanOrEqual(context.ceilingTokens);
  });

  it('throws EngramInvalidArgumentError with the field violations the service found', async () => {
    const failure = await acme
      .search({ query: 'units', topK: 1000, mode: 'psychic' })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(EngramInvalidArgumentError);
    const { fieldViolations, message } = failure as EngramInvalidArgumentError;
    expect(fieldViolations).toEqual([
      { field: 'mode', description: expect.stringMatching(/^mode must be one of fulltext, trigram, regex/) },
      { field: 'topK', description: 'topK must be between 1 and 100 (got 1000)' },
    ]);
    expect(message).toMatch(/^invalid SearchRequest: .*\(fix mode, topK and send it again\)$/);
  });

  it('throws EngramNotFoundError for an agent without a profile', async () => {
    await expect(acme.getAgent({ agent: 'nobody' })).rejects.toBeInstanceOf(EngramNotFoundError);
  });

  it('refuses a turn ingest would dead-letter before publishing it', async () => {
    await expect(acme.publishTurn({ turnId: 'turn-2', messages: [] })).rejects.toMatchObject({
      fieldViolations: [
        { field: 'sessionKey', description: 'sessionKey is required' },
        { field: 'messages', description: 'a turn needs at least one message' },
      ],
    });
  });

  it('throws EngramUnavailableError after its retries when no service answers', async () => {
    // No patrol runs in this environment: nobody answers being memory.
    const client = await EngramClient.connect({
      servers: env.nats.url,
      tenant: 'acme',
      agent: 'ada',
      retry: { retries: 2, baseDelayMs: 10 },
    });
    try {
      const failure = await client.getBeing().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(EngramUnavailableError);
      expect(failure).toMatchObject({ retries: 2, where: env.nats.url });
      expect((failure as Error).message).toBe(
        `Engram is not reachable at ${env.nats.url}: is it running (\`npm start\`)? retried 2 times (no service answers mem.rpc.being.get.acme)`,
      );
    } finally {
      await client.close();
    }
  });

  it('throws EngramUnavailableError after its retries when NATS itself does not answer', async () => {
    const nowhere = `nats://127.0.0.1:${await freePort()}`;
    const failure = await EngramClient.connect({
      servers: nowhere,
      tenant: 'acme',
      retry: { retries: 1, baseDelayMs: 10 },
    }).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(EngramUnavailableError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^Engram is not reachable at ${nowhere}: is it running \\(\`npm start\`\\)\\? retried 1 time \\(`,
      ),
    );
  });

  it('throws EngramUnavailableError for a turn when no stream takes turns (Engram never started on this NATS)', async () => {
    const bare = await startNatsServer();
    const client = await EngramClient.connect({
      servers: bare.url,
      tenant: 'acme',
      agent: 'concierge',
      retry: { retries: 1, baseDelayMs: 10 },
    });
    try {
      await expect(client.publishTurn(turn)).rejects.toThrow(
        new EngramUnavailableError(
          'no stream takes mem.turn.acme.concierge (has ingest started?)',
          bare.url,
          1,
        ),
      );
    } finally {
      await client.close();
      await bare.stop();
    }
  });

  it("sends the caller's deadline in the header the RPC endpoint reads", () => {
    expect(DEADLINE_HEADER).toBe(ENDPOINT_DEADLINE_HEADER);
  });
});
