import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server does with the next request it accepts (after the response-format check). */
export type Behaviour =
  /** A normal answer: embeddings, or a chat answer with `defaultContent`. */
  | { readonly kind: 'ok' }
  /** A chat answer with this content. */
  | { readonly kind: 'content'; readonly content: string; readonly finishReason?: string }
  /** An error status with an OpenAI-style error body (or `body` verbatim). */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly message?: string;
      readonly body?: string;
      readonly headers?: Record<string, string>;
    }
  /** An error whose message echoes the request's Authorization header and the bare key, as a careless proxy would. */
  | { readonly kind: 'echo-auth'; readonly status: number }
  /** A 200 whose body is not JSON. */
  | { readonly kind: 'garbage' }
  /** Never answer (until the client gives up: see RecordedRequest.closedAt). */
  | { readonly kind: 'stall' }
  /** Wait `ms`, then do `then` (a normal answer by default): a slow model. */
  | { readonly kind: 'delay'; readonly ms: number; readonly then?: Behaviour }
  /** Destroy the socket without answering. */
  | { readonly kind: 'close' };

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** performance.now() when the request arrived. */
  readonly at: number;
  /** Which TCP connection (1-based, in accept order) carried it. */
  readonly connection: number;
  /**
   * performance.now() when the connection closed before the request was answered: the client
   * gave up (aborted), or the 'close' behaviour hung up on it.
   */
  closedAt?: number;
}

export interface FakeOpenAiServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Queue behaviours for the next requests; when the queue is empty, requests get 'ok'. */
  script(...behaviours: Behaviour[]): void;
  /** Answer 400 to requests whose response_format.type is one of these, like servers without that feature. */
  rejectResponseFormats: Set<string>;
  dimensions: number;
  defaultContent: string;
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A small HTTP server speaking the OpenAI protocol (POST /v1/embeddings, /v1/chat/completions)
 * that can be told to fail, stall, answer slowly, close the socket, rate limit or answer badly,
 * and records what it was sent (and whether the client hung up before the answer).
 * For tests and benchmarks only (this lib is never part of a service's build).
 */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: Behaviour[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let connectionCount = 0;
  const connectionIds = new WeakMap<object, number>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      const recorded: RecordedRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body,
        at: performance.now(),
        connection: connectionIds.get(req.socket) ?? 0,
      };
      requests.push(recorded);
      res.once('close', () => {
        if (!res.writableEnded) recorded.closedAt = performance.now();
      });
      for (const waiter of waiters.filter((w) => requests.length >= w.n)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      handle(req, res, body);
    });
  });
  server.on('connection', (socket) => connectionIds.set(socket, ++connectionCount));

  const fake: FakeOpenAiServer = {
    url: '',
    requests,
    connections: () => connectionCount,
    script: (...behaviours) => queue.push(...behaviours),
    rejectResponseFormats: new Set(),
    dimensions: 4,
    defaultContent: 'Hello from the fake server.',
    waitForRequests: (n) =>
      requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function handle(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void {
    const format = (body.response_format as { type?: string } | undefined)?.type;
    if (req.url === '/v1/chat/completions' && format && fake.rejectResponseFormats.has(format)) {
      // as llama.cpp / older vLLM say it
      return json(res, 400, {
        error: {
          message: `response_format type "${format}" is not supported`,
          type: 'invalid_request_error',
        },
      });
    }
    respond(req, res, body, queue.shift() ?? { kind: 'ok' });
  }

  function respond(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    behaviour: Behaviour,
  ): void {
    switch (behaviour.kind) {
      case 'stall':
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) respond(req, res, body, behaviour.then ?? { kind: 'ok' });
        }, behaviour.ms);
        timers.add(timer);
        return;
      }
      case 'close':
        req.socket.destroy();
        return;
      case 'garbage':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>Welcome to nginx!</body></html>');
        return;
      case 'status':
        res.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
        res.end(
          behaviour.body ??
            JSON.stringify({
              error: { message: behaviour.message ?? `failure ${behaviour.status}`, type: 'server_error' },
            }),
        );
        return;
      case 'echo-auth': {
        const header = String(req.headers.authorization ?? '');
        const key = header.replace(/^Bearer /, '');
        return json(res, behaviour.status, {
          error: { message: `Incorrect API key provided: ${key} (header was "${header}")` },
        });
      }
      case 'content':
        return chatAnswer(res, body, behaviour.content, behaviour.finishReason);
      case 'ok':
        if (req.url === '/v1/embeddings') return embeddings(res, body);
        if (req.url === '/v1/chat/completions') return chatAnswer(res, body, fake.defaultContent);
        return json(res, 404, { error: { message: `no route ${req.url}` } });
    }
  }

  function embeddings(res: ServerResponse, body: Record<string, unknown>): void {
    const input = body.input as string[];
    // Deterministic vectors, listed in reverse order: the client must sort by index.
    const data = input
      .map((text, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from({ length: fake.dimensions }, (_, d) =>
          d === 0 ? index : text.length / (d + 1),
        ),
      }))
      .reverse();
    json(res, 200, {
      object: 'list',
      data,
      model: `${String(body.model)}-served`,
      usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
    });
  }

  function chatAnswer(
    res: ServerResponse,
    body: Record<string, unknown>,
    content: string,
    finishReason = 'stop',
  ): void {
    json(res, 200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      model: String(body.model),
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (fake as { url: string }).url = `http://127.0.0.1:${port}`;
  return fake;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
