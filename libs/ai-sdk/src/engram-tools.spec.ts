import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { EngramClient } from '@engram/client';
import { createMemoryMcpServer } from '@engram/mcp';
import { ENGRAM_TOOL_NAMES, engramTools } from './engram-tools';
import { loadAiSdk } from './testing/ai-sdk';

/** The tools Engram's MCP server lists, by name: what an MCP client is told about each. */
async function mcpListing(): Promise<
  Map<string, { description?: string; inputSchema: { properties?: object } }>
> {
  const server = createMemoryMcpServer({
    call: () => Promise.reject(new Error('listing the tools calls no RPC')),
    tenant: 'acme',
    agent: 'concierge',
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  } finally {
    await client.close();
  }
}

describe('the memory tools for the AI SDK', () => {
  // Never connected: building the tools calls nothing.
  const engram = EngramClient.http({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'egm_unused',
    agent: 'concierge',
  });

  it("are Engram's MCP tools: the same names, descriptions and arguments", async () => {
    const [listed, { asSchema }] = await Promise.all([mcpListing(), loadAiSdk()]);
    const tools = engramTools(engram);
    expect(Object.keys(tools)).toEqual([...ENGRAM_TOOL_NAMES]);
    for (const name of ENGRAM_TOOL_NAMES) {
      // The arguments as the AI SDK sends them to a model (JSON Schema) and as MCP lists them.
      const sent = await asSchema(tools[name].inputSchema).jsonSchema;
      expect([name, tools[name].description]).toEqual([name, listed.get(name)?.description]);
      expect(Object.keys(sent.properties ?? {})).toEqual(
        Object.keys(listed.get(name)!.inputSchema.properties ?? {}),
      );
    }
  });

  it('are the ones asked for, and tell the model which conversation they read by default', () => {
    const tools = engramTools(engram, { include: ['memory_browse', 'memory_save'], sessionKey: 'chat-7' });
    expect(Object.keys(tools).sort()).toEqual(['memory_browse', 'memory_save']);
    expect(tools.memory_browse.description).toMatch(
      / Here, when no conversation is named, it is the current one: sessionKey "chat-7"\.$/,
    );
    expect(tools.memory_save.description).not.toMatch(/chat-7/);
  });

  it('need an agent whose memory they use', () => {
    const anonymous = EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'egm_unused' });
    expect(() => engramTools(anonymous)).toThrow(/engramTools needs an agent/);
    expect(Object.keys(engramTools(anonymous, { agent: 'concierge', include: ['memory_search'] }))).toEqual([
      'memory_search',
    ]);
  });
});
