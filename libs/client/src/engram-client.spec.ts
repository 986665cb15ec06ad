import { create } from '@bufbuild/protobuf';
import { encodeMessage, Rpcs, timestampFromDate, type RpcSpec } from '@engram/contracts';
import { EngramClient } from './engram-client';
import {
  EngramDeadlineExceededError,
  EngramError,
  EngramInvalidArgumentError,
  EngramRateLimitedError,
  EngramUnavailableError,
  engramError,
} from './errors';
import type { PublishedTurn, Transport } from './transport';

type Json = Record<string, unknown>;
const json = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as Json;

/** A transport that records what it was sent (as JSON), fails with the queued errors first, else answers an empty response. */
class FakeTransport implements Transport {
  readonly where = 'nats://fake:4222';
  readonly tenant = 'acme';
  readonly calls: Array<{ subject: string; request: Json; timeoutMs: number }> = [];
  readonly turns: Array<{ agent: string; turn: Json; key: string }> = [];
  failures: Error[] = [];

  async call(spec: RpcSpec, body: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    this.calls.push({ subject: spec.subject, request: json(body), timeoutMs });
    const failure = this.failures.shift();
    if (failure) throw failure;
    return encodeMessage(spec.response, create(spec.response));
  }

  async publishTurn({ agent }: { agent: string }, body: Uint8Array, key: string): Promise<PublishedTurn> {
    this.turns.push({ agent, turn: json(body), key });
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { stream: 'TURNS', seq: this.turns.length, duplicate: false };
  }

  async close(): Promise<void> {}
}

const noWait = { baseDelayMs: 0, maxDelayMs: 0 };
const unavailable = () =>
  new EngramUnavailableError('no service answers mem.rpc.search.acme', 'nats://fake:4222');
const turn = {
  turnId: 't-1',
  sessionKey: 'chat-1',
  messages: [{ role: 'user', content: 'I prefer metric units.' }],
};

describe('EngramClient retries', () => {
  it('retries UNAVAILABLE with the configured count, then throws it saying how often it retried', async () => {
    const transport = new FakeTransport();
    transport.failures = [unavailable(), unavailable(), unavailable()];
    const client = new EngramClient(transport, { retry: { retries: 2, ...noWait } });

    const failure = await client.search({ query: 'units' }).catch((error: unknown) => error);

    expect(transport.calls).toHaveLength(3);
    expect(failure).toBeInstanceOf(EngramUnavailableError);
    expect((failure as Error).message).toMatch(
      /^Engram is not reachable at nats:\/\/fake:4222: is it running \(`npm start`\)\? retried 2 times/,
    );
  });

  it('retries 3 times by default and answers once Engram is back', async () => {
    const transport = new FakeTransport();
    transport.failures = [unavailable(), unavailable(), unavailable()];
    const client = new EngramClient(transport, { retry: noWait });

    await expect(client.stats()).resolves.toMatchObject({ $typeName: 'memory.v1.StatsResponse' });
    expect(transport.calls).toHaveLength(4);
  });

  it.each([
    'INVALID_ARGUMENT',
    'UNAUTHENTICATED',
    'PERMISSION_DENIED',
    'NOT_FOUND',
    'FAILED_PRECONDITION',
    'PAYLOAD_TOO_LARGE',
    'RESOURCE_EXHAUSTED',
    'INTERNAL',
  ])('never retries %s', async (code) => {
    const transport = new FakeTransport();
    const failure = engramError(code, `${code} happened`, {}, { where: transport.where });
    transport.failures = [failure, unavailable()];
    const client = new EngramClient(transport, { retry: noWait });

    await expect(client.search({ query: 'units' })).rejects.toBe(failure);
    expect(transport.calls).toHaveLength(1);
  });

  it('asks a read again when its answer did not come in time, never a write', async () => {
    const transport = new FakeTransport();
    transport.failures = [new EngramDeadlineExceededError('mem.rpc.search.acme did not answer within 10 ms')];
    const client = new EngramClient(transport, { retry: noWait });
    await expect(client.search({ query: 'units' })).resolves.toBeDefined();
    expect(transport.calls).toHaveLength(2);

    const timedOut = new EngramDeadlineExceededError('mem.rpc.save.acme did not answer within 10 ms');
    transport.failures = [timedOut];
    transport.calls.length = 0;
    await expect(client.save({ agent: 'concierge', content: 'Ada likes tea' })).rejects.toBe(timedOut);
    expect(transport.calls).toHaveLength(1);
  });

  it('retries a turn whose publish found Engram unavailable, with the same idempotency key', async () => {
    const transport = new FakeTransport();
    transport.failures = [unavailable()];
    const client = new EngramClient(transport, { agent: 'concierge', retry: noWait });

    await expect(client.publishTurn(turn)).resolves.toEqual({ stream: 'TURNS', seq: 2, duplicate: false });
    expect(transport.turns.map((t) => t.key)).toEqual(['t-1', 't-1']);
  });

  it('does not retry a turn whose publish timed out', async () => {
    const transport = new FakeTransport();
    transport.failures = [
      new EngramDeadlineExceededError('mem.turn.acme.concierge did not answer within 10 ms'),
    ];
    const client = new EngramClient(transport, { agent: 'concierge', retry: noWait });

    await expect(client.publishTurn(turn)).rejects.toBeInstanceOf(EngramDeadlineExceededError);
    expect(transport.turns).toHaveLength(1);
  });
});

describe('EngramClient requests', () => {
  it("fills the client's agent where a request leaves it out, and leaves a given one alone", async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'concierge' });

    await client.browse({ sessionKey: 'chat-1' });
    await client.save({ agent: 'other-bot', content: 'Ada prefers metric units.' });
    await client.search({ query: 'units' });
    await client.search({ query: 'units', filters: { agent: 'other-bot', channel: 'web' } });
    await client.expand({ refs: ['message:12'] });

    expect(transport.calls.map((c) => [c.subject, c.request['agent']])).toEqual([
      ['mem.rpc.browse', 'concierge'],
      ['mem.rpc.save', 'other-bot'],
      ['mem.rpc.search', undefined],
      ['mem.rpc.search', undefined],
      ['mem.rpc.expand', undefined],
    ]);
    expect(transport.calls[2]!.request['filters']).toMatchObject({ agent: 'concierge' });
    expect(transport.calls[3]!.request['filters']).toMatchObject({ agent: 'other-bot', channel: 'web' });
  });

  it("lists the client's agent's facts unless the request names agents", async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'concierge' });

    await client.listFacts({ metadata: { source: 'crm' } });
    await client.listFacts({ agents: ['other-bot', 'third'] });

    expect(transport.calls.map((c) => [c.subject, c.request['agents']])).toEqual([
      ['mem.rpc.facts.list', ['concierge']],
      ['mem.rpc.facts.list', ['other-bot', 'third']],
    ]);
    expect(transport.calls[0]!.request['metadata']).toEqual({ source: 'crm' });
  });

  it('sends each method to its RPC, with the default timeout or the one asked for', async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'ada', timeoutMs: 5_000 });

    await client.buildContext({ sessionKey: 'chat-1', currentMessage: 'hi' });
    await client.addScene({ scene: '{"action":"met Sam","actors":["Sam"]}' }, { timeoutMs: 50 });
    await client.recall({ message: 'Sam' });
    await client.runPatrol();
    await client.call(Rpcs.beingSoulPut, { personality: 'curious' });

    expect(transport.calls.map((c) => [c.subject, c.request['agent'], c.timeoutMs])).toEqual([
      ['mem.rpc.context.build', 'ada', 5_000],
      ['mem.rpc.being.scenes.add', 'ada', 50],
      ['mem.rpc.being.recall', 'ada', 5_000],
      ['mem.rpc.patrol.run', 'ada', 600_000],
      ['mem.rpc.being.soul.put', 'ada', 5_000],
    ]);
  });

  it('asks as of a moment given as a Timestamp or, from JavaScript, a Date; refuses a date that is none, naming it', async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'ada' });
    const at = new Date('2026-03-01T12:00:00Z');

    await client.search({ query: 'units', asOf: timestampFromDate(at) });
    await client.search({ query: 'units', asOf: at } as never);
    await client.buildContext({ sessionKey: 'chat-1', currentMessage: 'hi', asOf: at } as never);
    await client.search({ query: 'units', filters: { from: at } } as never);
    expect(transport.calls.map((c) => c.request['asOf'] ?? (c.request['filters'] as Json)['from'])).toEqual([
      '2026-03-01T12:00:00Z',
      '2026-03-01T12:00:00Z',
      '2026-03-01T12:00:00Z',
      '2026-03-01T12:00:00Z',
    ]);

    const failure = await client
      .search({ query: 'units', asOf: new Date('last week') } as never)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngramInvalidArgumentError);
    expect((failure as EngramInvalidArgumentError).fieldViolations).toEqual([
      { field: 'asOf', description: 'asOf is not a date between the years 1 and 9999' },
    ]);
    expect(transport.calls).toHaveLength(4);
  });

  it("never changes the caller's own request message", async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'concierge' });
    const request = { sessionKey: 'chat-1' };

    await client.browse(request);
    expect(request).toEqual({ sessionKey: 'chat-1' });
  });

  it('refuses a value of the wrong type as INVALID_ARGUMENT before anything is sent', async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport);

    await expect(client.search({ query: 'units', filters: 'everything' } as never)).rejects.toBeInstanceOf(
      EngramInvalidArgumentError,
    );
    expect(transport.calls).toEqual([]);
  });
});

describe('EngramClient.publishTurn', () => {
  it("publishes under the turn's agent, else the client's, keyed by the turn id unless a key is given", async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'concierge' });

    await client.publishTurn(turn);
    await client.publishTurn({ ...turn, agent: 'other-bot' }, { idempotencyKey: 'retry-safe-1' });

    expect(transport.turns.map((t) => [t.agent, t.key, t.turn['turnId']])).toEqual([
      ['concierge', 't-1', 't-1'],
      ['other-bot', 'retry-safe-1', 't-1'],
    ]);
  });

  it('refuses a turn ingest would dead-letter, naming each bad field, and publishes nothing', async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport, { agent: 'concierge' });

    const failure = await client
      .publishTurn({ turnId: 't-2', messages: [{ role: 'narrator', content: 'Once upon a time' }] })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EngramInvalidArgumentError);
    expect((failure as EngramInvalidArgumentError).fieldViolations).toEqual([
      { field: 'sessionKey', description: 'sessionKey is required' },
      { field: 'messages[0].role', description: 'role must be one of user, assistant, system, tool' },
    ]);
    expect((failure as Error).message).toMatch(/\(fix sessionKey, messages\[0\]\.role and send it again\)$/);
    expect(transport.turns).toEqual([]);
  });

  it('refuses a turn without an agent, or with one that cannot be a subject token', async () => {
    const transport = new FakeTransport();
    const client = new EngramClient(transport);

    await expect(client.publishTurn(turn)).rejects.toMatchObject({
      fieldViolations: [
        { field: 'agent', description: 'agent is required: set it on the turn or on the client' },
      ],
    });
    await expect(client.publishTurn({ ...turn, agent: 'support bot' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      fieldViolations: [{ field: 'agent' }],
    });
    expect(transport.turns).toEqual([]);
  });
});

describe('EngramClient.connect', () => {
  it('refuses a tenant that cannot be a subject token before connecting anywhere', async () => {
    await expect(
      EngramClient.connect({ servers: 'nats://127.0.0.1:1', tenant: 'acme corp', retry: noWait }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      fieldViolations: [{ field: 'tenant', description: 'tenant must be 1 to 64 of A-Z a-z 0-9 _ -' }],
    });
  });
});

describe('EngramClient.close', () => {
  it('refuses calls once closed', async () => {
    const client = new EngramClient(new FakeTransport());
    await client.close();
    await expect(client.stats()).rejects.toThrow('this EngramClient is closed');
  });
});

describe('error classes', () => {
  it('are EngramErrors with the code, and say what to do', () => {
    const limited = engramError(
      'RESOURCE_EXHAUSTED',
      'rate limit of key egm_ab exceeded',
      {},
      {
        where: 'http://127.0.0.1:8080',
        retryAfterMs: 3_000,
      },
    );
    expect(limited).toBeInstanceOf(EngramRateLimitedError);
    expect(limited).toBeInstanceOf(EngramError);
    expect(limited).toMatchObject({ code: 'RESOURCE_EXHAUSTED', retryAfterMs: 3_000 });
    expect(limited.message).toBe('rate limit of key egm_ab exceeded (slow down: try again in 3 s)');
    expect(engramError('TEAPOT', 'short and stout', {}, { where: 'here' })).toMatchObject({
      code: 'UNKNOWN',
      details: { code: 'TEAPOT' },
    });
  });
});
