import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { Rpcs, timestampFromDate, type RpcSpec } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { createMemoryMcpServer } from './memory-mcp-server';
import type { MemoryRpcCall, MemoryRpcOptions } from './tool-scope';

/** One RPC the tools sent: its subject, the request as the service decodes it, and the options. */
interface SentCall {
  readonly subject: string;
  readonly request: Record<string, unknown>;
  readonly options: MemoryRpcOptions;
}

type Answer = (request: Record<string, unknown>) => MessageInitShape<DescMessage>;

/**
 * Engram as the tools see it, faked: each RPC answers what the test set for its subject (an
 * empty response otherwise) or throws what the test set. What is tested here is the tool
 * layer — arguments, requests, rendering, errors — not Engram (the int-spec covers that).
 */
class FakeEngram {
  readonly sent: SentCall[] = [];
  private readonly answers = new Map<string, Answer | Error>();

  answer(spec: RpcSpec, answer: Answer | Error): this {
    this.answers.set(spec.subject, answer);
    return this;
  }

  readonly call: MemoryRpcCall = async (spec, request, options) => {
    const decoded = create(spec.request, request) as unknown as Record<string, unknown>;
    this.sent.push({ subject: spec.subject, request: decoded, options });
    const answer = this.answers.get(spec.subject);
    if (answer instanceof Error) throw answer;
    return create(spec.response, answer?.(decoded) ?? {}) as never;
  };

  subjects(): string[] {
    return this.sent.map((s) => s.subject);
  }
}

async function connectedClient(engram: FakeEngram, agent = 'support-bot'): Promise<Client> {
  const server = createMemoryMcpServer({ call: engram.call, tenant: 'acme', agent });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** The text of a tool result. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

const hit = (id: string, kind: string, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  kind,
  content,
  score: 0.8234,
  createdAt: timestampFromDate(new Date('2024-05-01T14:03:20Z')),
  provenance: { agent: 'support-bot', conversationId: '3', role: 'user', author: 'Ada' },
  ...extra,
});

describe('the memory MCP server (in process, Engram faked)', () => {
  let engram: FakeEngram;
  let client: Client;

  beforeEach(async () => {
    engram = new FakeEngram();
    client = await connectedClient(engram);
  });

  afterEach(() => client.close());

  it('lists the nine tools, each with a description and a closed, described input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'memory_search',
      'memory_browse',
      'memory_stats',
      'memory_save',
      'memory_forget',
      'context_build',
      'recall',
      'recall_memory',
      'search_memory',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(150);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {}))
        expect({ name, description: (property as { description?: string }).description }).toEqual({
          name,
          description: expect.any(String),
        });
    }
    const search = tools.find((t) => t.name === 'memory_search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.inputSchema.properties!['query']).toMatchObject({ type: 'string', maxLength: 2000 });
    expect(search.inputSchema.properties!['topK']).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
  });

  it('tells the client whose memory it serves', () => {
    expect(client.getInstructions()).toMatch(/long-term memory of agent support-bot/);
  });

  it("memory_search asks retrieval with the server's tenant and agent and lists the hits by ref", async () => {
    engram.answer(Rpcs.search, () => ({
      hits: [
        hit('6', 'fact', 'Ada prefers metric units.', { provenance: { agent: 'support-bot' } }),
        hit('12', 'message', 'Hi! I am Ada.\nPlease use metric units.', { expandedFrom: 'fact:6', score: 0 }),
      ],
      degraded: true,
      degradedReason: 'no vectors yet: answered from full text',
    }));
    const result = await client.callTool({
      name: 'memory_search',
      arguments: {
        query: 'metric units',
        topK: 5,
        fusion: 'rrf',
        kinds: ['fact', 'message'],
        from: '2024-05-01',
        to: '2024-05-31T23:59:59',
        conversationId: 'conversation:3',
      },
    });

    expect(result.isError).toBeFalsy();
    expect(engram.sent).toEqual([
      {
        subject: 'mem.rpc.search',
        options: { tenantId: 'acme' },
        request: expect.objectContaining({
          query: 'metric units',
          topK: 5,
          fusion: 'rrf',
          filters: expect.objectContaining({
            agent: 'support-bot',
            conversationId: '3',
            kinds: ['fact', 'message'],
            from: timestampFromDate(new Date('2024-05-01T00:00:00Z')),
            to: timestampFromDate(new Date('2024-05-31T23:59:59Z')),
          }),
        }),
      },
    ]);
    expect(textOf(result)).toBe(
      [
        '2 items for "metric units", best first (refs in brackets):',
        '1. [fact:6] 0.82 · 2024-05-01 14:03 · fact — Ada prefers metric units.',
        '   ↳ from fact:6: [message:12] 2024-05-01 14:03 · user (Ada) · conversation 3 — Hi! I am Ada. ⏎ Please use metric units.',
        '',
        'Note: no vectors yet: answered from full text.',
      ].join('\n'),
    );
    expect(result.structuredContent).toMatchObject({
      hits: [
        { id: '6', kind: 'fact' },
        { id: '12', expandedFrom: 'fact:6' },
      ],
      degraded: true,
    });
  });

  it('reads another agent of the tenant when a read tool is asked to, and only then', async () => {
    await client.callTool({ name: 'memory_stats', arguments: {} });
    await client.callTool({ name: 'memory_stats', arguments: { agent: 'sales-bot' } });
    await client.callTool({ name: 'memory_browse', arguments: { agent: 'sales-bot', sessionKey: 'chat-1' } });
    expect(engram.sent.map((s) => [s.subject, s.request['agent']])).toEqual([
      ['mem.rpc.stats.get', 'support-bot'],
      ['mem.rpc.stats.get', 'sales-bot'],
      ['mem.rpc.browse', 'sales-bot'],
    ]);
  });

  it("writes and being memory act for the server's agent only: they take no agent argument", async () => {
    for (const [name, args] of [
      ['memory_save', { content: 'Ada likes tea.' }],
      ['context_build', { currentMessage: 'hi' }],
      ['recall', { message: 'hi' }],
      ['search_memory', { keywords: ['tea'] }],
    ] as const) {
      const result = await client.callTool({ name, arguments: { ...args, agent: 'sales-bot' } });
      expect({ name, isError: result.isError, text: textOf(result) }).toEqual({
        name,
        isError: true,
        text: expect.stringMatching(/unknown argument "agent": this tool takes/),
      });
    }
    expect(engram.sent).toEqual([]);
  });

  it.each([
    ['a wrong type', 'memory_search', { query: 42 }, /expected text, got 42 at query/],
    ['a missing required argument', 'memory_search', { topK: 3 }, /a value is required at query/],
    [
      'an unknown key',
      'memory_browse',
      { sessionKey: 'chat-1', page: 2 },
      /unknown argument "page": this tool takes sessionKey, conversationId/,
    ],
    [
      'oversized text',
      'memory_save',
      { content: 'x'.repeat(4001) },
      /4001 characters is too long: at most 4000 at content/,
    ],
    [
      'a number out of range',
      'memory_search',
      { query: 'tea', topK: 1000 },
      /expected at most 100, got 1000 at topK/,
    ],
    [
      'a fraction where a count goes',
      'memory_browse',
      { limit: 2.5 },
      /expected a whole number, got 2.5 at limit/,
    ],
    [
      'a word not in the list',
      'memory_save',
      { content: 'x', category: 'gossip' },
      /expected one of "preference", .*, got "gossip" at category/,
    ],
    [
      'an id that is no id',
      'memory_forget',
      { factId: 'the tea one' },
      /expected a fact id like "12" or "fact:12", got "the tea one" at factId/,
    ],
    [
      'a time that is no time',
      'memory_search',
      { query: 'tea', from: 'yesterday' },
      /expected an ISO 8601 date or date-time .* at from/,
    ],
    ['an empty list', 'search_memory', { keywords: [] }, /expected at least one item at keywords/],
    ['a blank text', 'recall', { message: '   ' }, /may not be empty at message/],
  ])(
    'refuses %s as a tool error naming it, sends nothing, and answers the next call',
    async (_what, name, args, message) => {
      const refused = await client.callTool({ name, arguments: args });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(new RegExp(`Invalid arguments for tool ${name}: `));
      expect(textOf(refused)).toMatch(message);
      expect(engram.sent).toEqual([]);

      const next = await client.callTool({ name: 'memory_stats', arguments: {} });
      expect(next.isError).toBeFalsy();
    },
  );

  it("renders Engram's INVALID_ARGUMENT with each bad field by the tool's argument name", async () => {
    engram.answer(
      Rpcs.search,
      RpcError.invalidArgument('invalid SearchRequest: the regex cannot be used: nested repetition', {
        fieldViolations: [
          { field: 'query', description: 'the regex cannot be used: nested repetition' },
          { field: 'filters.conversationId', description: 'conversation 99 is not one of this agent' },
        ],
      }),
    );
    const result = await client.callTool({
      name: 'memory_search',
      arguments: { query: '(a+)+', mode: 'regex' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        'Engram refused the arguments; correct them and call again:',
        '- query: the regex cannot be used: nested repetition',
        '- conversationId: conversation 99 is not one of this agent',
      ].join('\n'),
    );
    expect(result.structuredContent).toEqual({
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'invalid SearchRequest: the regex cannot be used: nested repetition',
        fieldViolations: [
          { field: 'query', argument: 'query', description: 'the regex cannot be used: nested repetition' },
          {
            field: 'filters.conversationId',
            argument: 'conversationId',
            description: 'conversation 99 is not one of this agent',
          },
        ],
      },
    });
  });

  it.each([
    ['NOT_FOUND', new RpcError('NOT_FOUND', 'no such conversation'), /^Not found: no such conversation\.$/],
    [
      'UNAVAILABLE',
      new RpcError('UNAVAILABLE', 'no service answers mem.rpc.browse.acme'),
      /^Engram's retrieval service is not answering \(no service answers mem.rpc.browse.acme\)\. .*check that it runs/,
    ],
    [
      'UNAVAILABLE, from the transport',
      new RpcError('UNAVAILABLE', 'cannot reach NATS at nats://127.0.0.1:1: connection refused', {
        service: 'NATS server',
      }),
      /^Engram's NATS server is not answering \(cannot reach NATS at nats:\/\/127.0.0.1:1: connection refused\)\./,
    ],
    [
      'DEADLINE_EXCEEDED',
      new RpcError('DEADLINE_EXCEEDED', 'late'),
      /^Engram's retrieval service did not answer in time \(late\)\. Try again/,
    ],
    [
      'RESOURCE_EXHAUSTED',
      new RpcError('RESOURCE_EXHAUSTED', 'busy'),
      /^Engram's retrieval service is busy \(busy\)\. Try again in a few seconds\.$/,
    ],
    [
      'INTERNAL',
      new RpcError('INTERNAL', 'internal error'),
      /^Engram's retrieval service failed \(internal error\)/,
    ],
    ['a thrown Error', new Error('connection closed'), /^The tool failed unexpectedly: connection closed$/],
  ])('turns a failed RPC (%s) into a tool error that says what to do', async (_code, error, message) => {
    engram.answer(Rpcs.browse, error);
    const result = await client.callTool({ name: 'memory_browse', arguments: { sessionKey: 'chat-1' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(result.structuredContent).toMatchObject({
      error: { code: error instanceof RpcError ? error.code : 'INTERNAL', message: error.message },
    });
  });

  it('memory_browse reads around a search hit by its ref and says how to read on', async () => {
    engram.answer(Rpcs.browse, () => ({
      messages: [
        {
          id: '11',
          conversationId: '3',
          role: 'user',
          author: 'Ada',
          content: 'Where is my order?',
          createdAt: timestampFromDate(new Date('2024-05-01T14:02:00Z')),
        },
        {
          id: '12',
          conversationId: '3',
          role: 'tool',
          toolName: 'order_lookup',
          content: 'Order 1042 shipped.',
          createdAt: timestampFromDate(new Date('2024-05-01T14:03:00Z')),
        },
      ],
      prevCursor: 'older-page',
    }));
    const result = await client.callTool({
      name: 'memory_browse',
      arguments: { aroundMessageId: 'message:12', limit: 2 },
    });
    expect(engram.sent[0]!.request).toMatchObject({ agent: 'support-bot', aroundMessageId: '12', limit: 2 });
    expect(textOf(result)).toBe(
      [
        '2 messages, oldest first (conversation 3):',
        '[message:11] 2024-05-01 14:02 · user (Ada) — Where is my order?',
        '[message:12] 2024-05-01 14:03 · tool · tool order_lookup — Order 1042 shipped.',
        'Older messages: cursor "older-page"',
      ].join('\n'),
    );
  });

  it('memory_save saves for the agent and says when memory already held the fact', async () => {
    engram.answer(Rpcs.save, () => ({ factId: '6', deduplicated: true }));
    const result = await client.callTool({
      name: 'memory_save',
      arguments: {
        content: 'Ada prefers metric units.',
        category: 'preference',
        sourceMessageIds: ['message:12', '13'],
      },
    });
    expect(engram.sent[0]!.request).toMatchObject({
      agent: 'support-bot',
      content: 'Ada prefers metric units.',
      category: 'preference',
      sourceMessageIds: ['12', '13'],
    });
    expect(textOf(result)).toBe(
      'Already remembered as fact:6 (its lifetime renewed); nothing new was stored.',
    );
    expect(result.structuredContent).toEqual({ factId: '6', ref: 'fact:6', deduplicated: true });
  });

  it("memory_forget forgets the agent's own fact, and refuses another agent's without forgetting it", async () => {
    const owner = { agent: 'support-bot' };
    engram
      .answer(Rpcs.expand, () => ({ items: [hit('6', 'fact', 'Ada likes tea.', { provenance: owner })] }))
      .answer(Rpcs.forget, () => ({
        factId: '6',
        validTo: timestampFromDate(new Date('2024-05-02T09:00:00Z')),
      }));
    const forgotten = await client.callTool({
      name: 'memory_forget',
      arguments: { factId: 'fact:6', reason: 'she stopped' },
    });
    expect(textOf(forgotten)).toBe('Forgot fact:6 (closed 2024-05-02 09:00 UTC); it is no longer served.');
    expect(engram.sent.map((s) => [s.subject, s.request])).toEqual([
      ['mem.rpc.expand', expect.objectContaining({ refs: ['fact:6'] })],
      ['mem.rpc.forget', expect.objectContaining({ factId: '6', reason: 'she stopped' })],
    ]);

    owner.agent = 'sales-bot';
    const refused = await client.callTool({ name: 'memory_forget', arguments: { factId: '6' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      "Not allowed: fact:6 is agent sales-bot's, not support-bot's; this server forgets only its own agent's facts.",
    );
    expect(engram.subjects().filter((s) => s === 'mem.rpc.forget')).toHaveLength(1);
  });

  it('context_build returns the prompt block by block, in order', async () => {
    engram.answer(Rpcs.contextBuild, () => ({
      model: 'gpt-4o-mini',
      totalTokens: 30,
      ceilingTokens: 96000,
      exactTokens: true,
      blocks: [
        { role: 'system', layer: 'identity', text: 'You are Rosa.', tokens: 5 },
        { role: 'user', layer: 'recent', text: 'Hi, I am Ada.', tokens: 6 },
      ],
      cut: [{ layer: 'memory', reason: 'already in the recent messages', tokens: 7 }],
    }));
    const result = await client.callTool({
      name: 'context_build',
      arguments: { currentMessage: 'Where is my order?', sessionKey: 'chat-7', model: 'gpt-4o-mini' },
    });
    expect(engram.sent[0]!.request).toMatchObject({
      agent: 'support-bot',
      currentMessage: 'Where is my order?',
      sessionKey: 'chat-7',
      model: 'gpt-4o-mini',
    });
    expect(textOf(result)).toBe(
      [
        'Prompt for model gpt-4o-mini: 30 of 96000 tokens; layers identity, recent. Send these blocks in order, then the current message.',
        'Left out of memory: already in the recent messages (7 tokens).',
        '',
        '--- system · identity · 5 tokens ---',
        'You are Rosa.',
        '',
        '--- user · recent · 6 tokens ---',
        'Hi, I am Ada.',
      ].join('\n'),
    );
  });

  describe('being memory', () => {
    const clusters = {
      agent: 'support-bot',
      clusters: [
        { id: '1', name: 'Business', root: 'business', parentId: '1', active: 1 },
        { id: '2', name: 'Private', root: 'private', parentId: '2', active: 3, dead: 1 },
        { id: '5', name: 'Cooking', parentId: '2', active: 2 },
      ],
    };
    const scene = {
      id: '9',
      clusterId: '5',
      action: 'baked sourdough bread with Mia',
      status: 'active',
      importance: 0.8,
      text: '2026-11-02 — kitchen — baked sourdough bread with Mia — (warm)',
    };

    it('recall answers the memory tag and the scenes it came from', async () => {
      engram.answer(Rpcs.beingRecall, () => ({
        text: '<memory>baked sourdough bread with Mia / warm</memory>',
        nodes: [scene],
      }));
      const result = await client.callTool({
        name: 'recall',
        arguments: { message: 'Shall we bake again?' },
      });
      expect(engram.sent[0]!.request).toMatchObject({
        agent: 'support-bot',
        message: 'Shall we bake again?',
      });
      expect(textOf(result)).toBe(
        [
          '<memory>baked sourdough bread with Mia / warm</memory>',
          '',
          '1 scene:',
          '[node:9] active · cluster 5 · importance 0.80 — 2026-11-02 — kitchen — baked sourdough bread with Mia — (warm)',
        ].join('\n'),
      );
    });

    it('recall says so when nothing comes back', async () => {
      const result = await client.callTool({ name: 'recall', arguments: { message: 'quantum physics' } });
      expect(textOf(result)).toBe('Nothing comes back: no scene is similar enough to this message.');
    });

    it('recall_memory finds a cluster by name, lists the clusters without one, and names them when none matches', async () => {
      engram
        .answer(Rpcs.beingGet, () => clusters)
        .answer(Rpcs.beingClustersRecall, () => ({ nodes: [scene] }));

      const cooking = await client.callTool({ name: 'recall_memory', arguments: { cluster: 'cooking' } });
      expect(engram.sent.at(-1)).toMatchObject({
        subject: 'mem.rpc.being.clusters.recall',
        request: { agent: 'support-bot', clusterId: '5' },
      });
      expect(textOf(cooking)).toMatch(/^1 scene:\n\[node:9\] active · cluster 5/);

      const listed = await client.callTool({ name: 'recall_memory', arguments: {} });
      expect(textOf(listed)).toBe(
        [
          '3 clusters:',
          '- Business (id 1): 1 active, 0 dying, 0 dead',
          '- Private (id 2): 3 active, 0 dying, 1 dead',
          '- Cooking (id 5, under Private): 2 active, 0 dying, 0 dead',
        ].join('\n'),
      );

      const unknown = await client.callTool({ name: 'recall_memory', arguments: { cluster: 'Gardening' } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toBe(
        'Not found: no cluster named "Gardening"; the clusters are: Business (id 1), Private (id 2), Cooking (id 5).',
      );

      await client.callTool({ name: 'recall_memory', arguments: { cluster: 'cluster:2' } });
      expect(engram.sent.at(-1)).toMatchObject({ request: { clusterId: '2' } });
    });

    it('recall_memory says when the agent has no scene memory yet', async () => {
      engram.answer(Rpcs.beingGet, RpcError.notFound('no being support-bot'));
      const result = await client.callTool({ name: 'recall_memory', arguments: { cluster: 'Private' } });
      expect(textOf(result)).toBe(
        'Not found: agent support-bot has no scene memory yet (no scene was written for it).',
      );
    });

    it('search_memory sends the keywords and says what it looked for when nothing matches', async () => {
      const result = await client.callTool({
        name: 'search_memory',
        arguments: { keywords: ['bread', 'Mia'], match: 'and' },
      });
      expect(engram.sent[0]!.request).toMatchObject({
        agent: 'support-bot',
        keywords: ['bread', 'Mia'],
        match: 'and',
        limit: 20,
      });
      expect(textOf(result)).toBe('No scene mentions "bread" and "Mia".');
    });
  });

  it('refuses to start for a tenant or agent that is no valid name', () => {
    expect(() => createMemoryMcpServer({ call: engram.call, tenant: 'acme', agent: 'no spaces' })).toThrow(
      'agent must be 1-64 letters, digits, "_" or "-" (got "no spaces")',
    );
    expect(() => createMemoryMcpServer({ call: engram.call, tenant: 'a.b', agent: 'bot' })).toThrow(
      /^tenant must be/,
    );
  });
});
