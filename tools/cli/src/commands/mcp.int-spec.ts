import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Rpcs } from '@engram/contracts';
import { handleMcpHttpRequest } from '@engram/mcp';
import { callRpc } from '@engram/messaging';
import { freePort, startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';

const CLI = resolve(__dirname, '../../dist/main.js');
const TOOLS = [
  'memory_search',
  'memory_browse',
  'memory_stats',
  'memory_save',
  'memory_forget',
  'context_build',
  'recall',
  'recall_memory',
  'search_memory',
];
const BREAD = 'baked sourdough bread with Mia in the kitchen';

/** `engram mcp` as an MCP client starts it: a child process spoken to over stdin and stdout. */
async function stdioClient(
  natsUrl: string,
  agent: string,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--tenant', 'acme', '--agent', agent],
    env: { ...(process.env as Record<string, string>), NATS_URL: natsUrl },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-int-spec', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The same server behind handleMcpHttpRequest, as the api edge mounts it, on a plain HTTP server. */
async function httpServer(env: TestEnvironment, agent: string): Promise<{ server: Server; url: URL }> {
  const server = createServer((req, res) => {
    handleMcpHttpRequest(
      { tenant: 'acme', agent, call: (spec, request, options) => callRpc(env.nc, spec, request, options) },
      req,
      res,
    ).catch((error: Error) => res.writeHead(500).end(error.message));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`) };
}

/** An MCP client of that server, over the SDK's streamable HTTP client transport. */
async function httpClient(env: TestEnvironment, agent: string): Promise<{ client: Client; server: Server }> {
  const { server, url } = await httpServer(env, agent);
  const client = new Client({ name: 'mcp-int-spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, server };
}

/** A tool call's result with its text. */
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { ...result, text };
}

/**
 * The memory MCP server with the SDK's own client, over both transports: `engram mcp` over
 * stdio (spawned as an MCP client spawns it) and streamable HTTP (handleMcpHttpRequest, what
 * the api edge mounts at /mcp), against Engram's services as processes on a real NATS and
 * Postgres: a published turn found and read, a fact saved and forgotten, a prompt built, a
 * being's scenes recalled, and bad arguments answered as tool errors in a session that goes on.
 */
describe('the memory MCP server (real NATS, Postgres and services as processes)', () => {
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'cli-mcp',
      processes: [
        'gerty',
        'ingest',
        'retrieval',
        'context-builder',
        { name: 'patrol', env: { PATROL_EVERY_MS: '0' } },
      ],
    });
  });

  afterAll(() => env?.stop());

  describe.each([
    ['stdio (engram mcp)', 'stdio-bot'],
    ['streamable HTTP (handleMcpHttpRequest)', 'http-bot'],
  ])('over %s', (transport, agent) => {
    let client: Client;
    let stop: () => Promise<void>;

    beforeAll(async () => {
      if (transport.startsWith('stdio')) {
        const stdio = await stdioClient(env.nats.url, agent);
        client = stdio.client;
        stop = () => client.close();
      } else {
        const http = await httpClient(env, agent);
        client = http.client;
        stop = async () => {
          await client.close();
          await new Promise((done) => http.server.close(done));
        };
      }
      const turn = {
        turnId: 'turn-1',
        sessionKey: 'chat-1',
        messages: [
          { role: 'user', author: 'Ada', content: 'Hi! I am Ada. Please use metric units.' },
          {
            role: 'assistant',
            content: 'Noted, Ada. [MEMORY:user_preference]Ada prefers metric units.[/MEMORY]',
          },
        ],
      };
      await env.js.publish(`mem.turn.acme.${agent}`, JSON.stringify(turn), { msgID: `${agent}-turn-1` });
      await callRpc(
        env.nc,
        Rpcs.beingScenesAdd,
        {
          agent,
          scene: JSON.stringify({
            action: BREAD,
            actors: ['me', 'Mia'],
            when: ['2026-11-02'],
            feeling: 'warm',
          }),
          importance: 0.8,
        },
        { tenantId: 'acme' },
      );
      await callRpc(env.nc, Rpcs.patrolRun, { agent }, { tenantId: 'acme', timeoutMs: 60_000 });
    });

    afterAll(() => stop?.());

    it('lists the nine tools, each with a description and an input schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.description).toEqual(expect.any(String));
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      }
    });

    it('finds a published turn with memory_search and reads it with memory_browse', async () => {
      let found = await callTool(client, 'memory_search', { query: 'metric units' });
      await waitFor(
        'ingest to store the turn',
        async () => {
          found = await callTool(client, 'memory_search', { query: 'metric units' });
          return found.text.includes('Please use metric units');
        },
        30_000,
        250,
      );
      expect(found.isError).toBeFalsy();
      expect(found.text).toMatch(/^1\. \[(message|fact):\d+\] /m);
      expect(found.text).toMatch(
        /\[message:\d+\] .*user \(Ada\) · conversation \d+ — Hi! I am Ada\. Please use metric units\./,
      );
      const hits = (found.structuredContent as { hits: Array<{ id: string; kind: string; content: string }> })
        .hits;
      const message = hits.find((h) => h.kind === 'message' && h.content.startsWith('Hi! I am Ada'))!;

      const read = await callTool(client, 'memory_browse', { aroundMessageId: `message:${message.id}` });
      expect(read.isError).toBeFalsy();
      expect(read.text).toMatch(/^2 messages, oldest first \(conversation \d+\):$/m);
      expect(read.text).toContain(`[message:${message.id}]`);
      expect(read.text).toMatch(/assistant — Noted, Ada\.$/m);
    });

    it('saves a fact with memory_save, finds it, forgets it with memory_forget, and no longer finds it', async () => {
      const saved = await callTool(client, 'memory_save', {
        content: "Ada's parcel locker code is 4417.",
        category: 'fact',
      });
      expect(saved.isError).toBeFalsy();
      const ref = /^Remembered as (fact:\d+)\.$/.exec(saved.text)![1]!;
      const search = { query: 'parcel locker code', kinds: ['fact'] };
      expect((await callTool(client, 'memory_search', search)).text).toContain(`[${ref}]`);

      const forgotten = await callTool(client, 'memory_forget', { factId: ref, reason: 'Ada moved' });
      expect(forgotten.isError).toBeFalsy();
      expect(forgotten.text).toMatch(
        new RegExp(`^Forgot ${ref} \\(closed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)`),
      );
      expect((await callTool(client, 'memory_search', search)).text).not.toContain(`[${ref}]`);
      expect(
        await env.count(`SELECT count(*) AS n FROM facts WHERE id = $1 AND forget_reason = 'Ada moved'`, [
          ref.slice('fact:'.length),
        ]),
      ).toBe(1);
    });

    it('builds the prompt for a message with context_build', async () => {
      const built = await callTool(client, 'context_build', {
        currentMessage: 'Which units do I like?',
        sessionKey: 'chat-1',
        model: 'gpt-4o-mini',
      });
      expect(built.isError).toBeFalsy();
      expect(built.text).toMatch(
        /^Prompt for model gpt-4o-mini: \d+ of \d+ tokens; layers identity, .*recent/,
      );
      expect(built.text).toMatch(/^--- system · identity · \d+ tokens ---$/m);
      expect(built.text).toContain('Hi! I am Ada. Please use metric units.');
      expect(built.structuredContent).toMatchObject({ model: 'gpt-4o-mini', blocks: expect.any(Array) });
    });

    it('searches memory and builds the prompt as of a moment (asOf): nothing said after it', async () => {
      const before = '2026-01-01T00:00:00Z';
      const later = new Date(Date.now() + 60_000).toISOString();
      expect(
        (await callTool(client, 'memory_search', { query: 'metric units', asOf: later })).text,
      ).toContain('Please use metric units');
      const then = await callTool(client, 'memory_search', { query: 'metric units', asOf: before });
      expect(then.isError).toBeFalsy();
      expect((then.structuredContent as { hits: unknown[] }).hits).toEqual([]);
      const built = await callTool(client, 'context_build', {
        currentMessage: 'Which units do I like?',
        sessionKey: 'chat-1',
        asOf: before,
      });
      expect(built.isError).toBeFalsy();
      expect(built.text).toContain('Today is Thursday, 1 January 2026 (2026-01-01).');
      expect(built.text).not.toContain('metric units');
      const bad = await callTool(client, 'memory_search', { query: 'metric units', asOf: 'last week' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/asOf/);
    });

    it("recalls the being's scene by meaning (recall), by keyword (search_memory) and by cluster (recall_memory)", async () => {
      const recalled = await callTool(client, 'recall', {
        message: 'we baked sourdough bread in the kitchen',
      });
      expect(recalled.isError).toBeFalsy();
      expect(recalled.text).toMatch(/^<memory>.*baked sourdough bread with Mia in the kitchen.*<\/memory>$/m);
      expect(recalled.text).toMatch(/^\[node:\d+\] active · cluster \d+ · importance 0\.80 — 2026-11-02 — /m);

      const searched = await callTool(client, 'search_memory', { keywords: ['sourdough'] });
      expect(searched.text).toMatch(/^1 scene:$/m);
      const node = (searched.structuredContent as { nodes: Array<{ clusterId: string }> }).nodes[0]!;

      const listed = await callTool(client, 'recall_memory', {});
      const clusters = (listed.structuredContent as { clusters: Array<{ id: string; name: string }> })
        .clusters;
      expect(clusters.map((c) => c.name)).toEqual(['Business', 'Private']);
      const cluster = clusters.find((c) => c.id === node.clusterId)!;
      const byName = await callTool(client, 'recall_memory', { cluster: cluster.name });
      expect(byName.isError).toBeFalsy();
      expect(byName.text).toContain(BREAD);
    });

    it('answers bad arguments and refused requests with tool errors, stores nothing of them, and keeps answering', async () => {
      const facts = () => env.count(`SELECT count(*) AS n FROM facts WHERE agent = $1`, [agent]);
      const factsBefore = await facts();
      const refused: Array<[string, Record<string, unknown>, RegExp]> = [
        ['memory_search', { query: 42 }, /expected text, got 42 at query/],
        ['memory_save', {}, /a value is required at content/],
        ['memory_browse', { sessionKey: 'chat-1', pageSize: 5 }, /unknown argument "pageSize"/],
        [
          'memory_save',
          { content: 'x'.repeat(4001) },
          /4001 characters is too long: at most 4000 at content/,
        ],
        ['recall', { message: 'y'.repeat(4001) }, /4001 characters is too long: at most 4000 at message/],
        ['context_build', { currentMessage: 'hi', conversationId: 'abc' }, /expected a conversation id/],
        ['search_memory', { keywords: 'bread' }, /expected a list, got "bread" at keywords/],
        [
          'memory_search',
          { query: '(a+)+$', mode: 'regex' },
          /^Engram refused the arguments; .*\n- query: the regex cannot be used/,
        ],
        ['memory_forget', { factId: '999999999' }, /^Not found: fact:999999999 not found\.$/],
        ['memory_browse', { sessionKey: 'no-such-chat' }, /^Not found: no such conversation\.$/],
      ];
      for (const [name, args, message] of refused) {
        const result = await callTool(client, name, args);
        expect({ name, isError: result.isError, text: result.text }).toEqual({
          name,
          isError: true,
          text: expect.stringMatching(message),
        });
        const next = await callTool(client, 'memory_stats', {});
        expect(next.isError).toBeFalsy();
        expect(next.text).toMatch(new RegExp(`^Memory of agent ${agent}:`));
      }
      expect(await facts()).toBe(factsBefore);
    });
  });

  describe('handleMcpHttpRequest', () => {
    it('answers a method other than POST with 405 and a JSON-RPC error: the endpoint keeps no session', async () => {
      const { server, url } = await httpServer(env, 'http-bot');
      try {
        for (const method of ['GET', 'DELETE']) {
          const response = await fetch(url, { method });
          expect({ method, status: response.status, allow: response.headers.get('allow') }).toEqual({
            method,
            status: 405,
            allow: 'POST',
          });
          expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
        }
      } finally {
        await new Promise((done) => server.close(done));
      }
    });
  });

  describe('engram mcp over stdio, as a process', () => {
    it('writes nothing but JSON-RPC to stdout, logs to stderr, and exits when its client closes stdin', async () => {
      const child = spawn(process.execPath, [CLI, 'mcp', '--tenant', 'acme', '--agent', 'stdio-bot'], {
        env: { ...process.env, NATS_URL: env.nats.url },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_stats', arguments: {} } });
      await waitFor('both answers', async () => stdout.split('\n').filter(Boolean).length >= 2, 30_000);
      child.stdin.end();

      expect(await exited).toBe(0);
      const lines = stdout.split('\n').filter(Boolean);
      expect(lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number })).toEqual([
        expect.objectContaining({
          jsonrpc: '2.0',
          id: 1,
          result: expect.objectContaining({ serverInfo: expect.anything() }),
        }),
        expect.objectContaining({
          jsonrpc: '2.0',
          id: 2,
          result: expect.objectContaining({ content: expect.any(Array) }),
        }),
      ]);
      expect(stderr).toContain('engram mcp: serving the memory of agent stdio-bot (tenant acme) over stdio');
      expect(stderr).toContain('engram mcp: stopping: the client closed stdin');
    });

    it('starts while NATS cannot be reached, and each tool call says so and what to do', async () => {
      const unreachable = `nats://127.0.0.1:${await freePort()}`;
      const { client, stderr } = await stdioClient(unreachable, 'stdio-bot');
      try {
        expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
        const result = await callTool(client, 'memory_search', { query: 'metric units' });
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(
          new RegExp(
            `^Engram's NATS server is not answering \\(cannot reach NATS at ${unreachable}: .*\\)\\. .*check that it runs`,
          ),
        );
        expect((await callTool(client, 'memory_stats', {})).isError).toBe(true);
        expect(stderr()).toContain(`cannot reach NATS at ${unreachable}`);
      } finally {
        await client.close();
      }
    });
  });
});
