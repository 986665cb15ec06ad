import { EngramClient } from '../engram-client';
import {
  EngramDeadlineExceededError,
  EngramInvalidArgumentError,
  EngramUnauthenticatedError,
  EngramUnavailableError,
} from '../errors';

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** A fetch that records each request and answers from the queue (a Response, or an error to throw). */
function fakeFetch(answers: Array<Response | Error>) {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(new TextDecoder().decode(init?.body as Uint8Array)) as Record<string, unknown>,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer queued');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { sent, fetch: fetch as typeof globalThis.fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status < 300 ? 'application/json' : 'application/problem+json', ...headers },
  });
const refused = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });

describe('EngramClient over HTTP', () => {
  it("POSTs each RPC's protobuf JSON to its route with the key, and reads the response message", async () => {
    const { sent, fetch } = fakeFetch([
      json(200, {
        hits: [{ id: 'message:12', kind: 'message', content: 'I prefer metric units.', score: 0.9 }],
        tookMs: 3,
      }),
    ]);
    const client = EngramClient.http({
      baseUrl: 'http://127.0.0.1:8080/',
      apiKey: 'egm_secret',
      agent: 'concierge',
      fetch,
    });

    const found = await client.search({ query: 'units', topK: 5 });

    expect(found.hits.map((h) => [h.id, h.content])).toEqual([['message:12', 'I prefer metric units.']]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: 'http://127.0.0.1:8080/v1/search',
      method: 'POST',
      headers: { authorization: 'Bearer egm_secret', 'content-type': 'application/json' },
      body: { query: 'units', topK: 5, filters: { agent: 'concierge' } },
    });
  });

  it('keeps a path prefix of the base URL and routes being memory by its subject', async () => {
    const { sent, fetch } = fakeFetch([json(200, { noteId: '7', status: 'pending' })]);
    const client = EngramClient.http({
      baseUrl: 'https://example.test/engram',
      apiKey: 'k',
      agent: 'ada',
      fetch,
    });

    await client.addScene({ scene: '{"action":"met Sam","actors":["Sam"]}' });
    expect(sent[0]!.url).toBe('https://example.test/engram/v1/being/scenes/add');
  });

  it('publishes a turn to /v1/turns/{agent} with its Idempotency-Key, and reads the 202', async () => {
    const { sent, fetch } = fakeFetch([
      json(202, { stream: 'TURNS', seq: 41, duplicate: false }),
      json(202, { stream: 'TURNS', seq: 41, duplicate: true }),
    ]);
    const client = EngramClient.http({
      baseUrl: 'http://127.0.0.1:8080',
      apiKey: 'k',
      agent: 'concierge',
      fetch,
    });
    const turn = { turnId: 'chat-7-0', sessionKey: 'chat-7', messages: [{ role: 'user', content: 'Hi' }] };

    await expect(client.publishTurn(turn)).resolves.toEqual({ stream: 'TURNS', seq: 41, duplicate: false });
    await expect(client.publishTurn(turn, { idempotencyKey: 'k-1' })).resolves.toMatchObject({
      duplicate: true,
    });
    expect(sent.map((s) => [s.url, s.headers['idempotency-key'], s.body['turnId']])).toEqual([
      ['http://127.0.0.1:8080/v1/turns/concierge', 'chat-7-0', 'chat-7-0'],
      ['http://127.0.0.1:8080/v1/turns/concierge', 'k-1', 'chat-7-0'],
    ]);
  });

  it('throws the class of the problem the edge answered, with its field violations, without retrying', async () => {
    const { sent, fetch } = fakeFetch([
      json(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'invalid SearchRequest: topK must be at most 100',
        code: 'INVALID_ARGUMENT',
        errors: [{ field: 'topK', detail: 'topK must be at most 100' }],
      }),
      json(401, { title: 'Unauthorized', status: 401, detail: 'unknown API key', code: 'UNAUTHENTICATED' }),
    ]);
    const client = EngramClient.http({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', fetch });

    const invalid = await client.search({ query: 'x', topK: 1000 }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(EngramInvalidArgumentError);
    expect((invalid as EngramInvalidArgumentError).fieldViolations).toEqual([
      { field: 'topK', description: 'topK must be at most 100' },
    ]);
    await expect(client.stats()).rejects.toBeInstanceOf(EngramUnauthenticatedError);
    expect(sent).toHaveLength(2);
  });

  it('retries when nothing answers, then says where it looked', async () => {
    const { sent, fetch } = fakeFetch([refused(), refused(), refused()]);
    const client = EngramClient.http({
      baseUrl: 'http://127.0.0.1:8080',
      apiKey: 'k',
      fetch,
      retry: { retries: 2, baseDelayMs: 0, maxDelayMs: 0 },
    });

    const failure = await client.stats().catch((error: unknown) => error);
    expect(sent).toHaveLength(3);
    expect(failure).toBeInstanceOf(EngramUnavailableError);
    expect((failure as Error).message).toBe(
      'Engram is not reachable at http://127.0.0.1:8080: is it running (`npm start`)? retried 2 times (POST /v1/stats/get: ECONNREFUSED)',
    );
  });

  it('retries a 503 and answers once the edge is back', async () => {
    const { sent, fetch } = fakeFetch([
      json(503, { status: 503, detail: 'no service answers mem.rpc.stats.get.acme', code: 'UNAVAILABLE' }),
      json(200, { messages: '12' }),
    ]);
    const client = EngramClient.http({
      baseUrl: 'http://127.0.0.1:8080',
      apiKey: 'k',
      fetch,
      retry: { baseDelayMs: 0 },
    });

    await expect(client.stats()).resolves.toMatchObject({ messages: 12n });
    expect(sent).toHaveLength(2);
  });

  it('reports a timeout as DEADLINE_EXCEEDED, a write once', async () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), {
      name: 'TimeoutError',
    });
    const { sent, fetch } = fakeFetch([timeout, json(200, {})]);
    const client = EngramClient.http({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', fetch, timeoutMs: 50 });

    await expect(client.save({ agent: 'concierge', content: 'Ada likes tea' })).rejects.toThrow(
      EngramDeadlineExceededError,
    );
    await expect(client.save({ agent: 'concierge', content: 'Ada likes tea' })).resolves.toBeDefined();
    expect(sent).toHaveLength(2);
  });
});
