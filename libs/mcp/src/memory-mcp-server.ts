import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isValidToken } from '@engram/contracts';
import type { MemoryTool } from './memory-tool';
import { recall, recallMemory, searchMemory } from './tools/being.tools';
import { contextBuild } from './tools/context.tools';
import { memoryBrowse, memoryForget, memorySave, memorySearch, memoryStats } from './tools/memory.tools';
import { toolScope, type MemoryMcpOptions } from './tool-scope';

/** Every tool the server offers, in the order it lists them. */
export const MEMORY_TOOLS: readonly MemoryTool[] = [
  memorySearch,
  memoryBrowse,
  memoryStats,
  memorySave,
  memoryForget,
  contextBuild,
  recall,
  recallMemory,
  searchMemory,
];

/** The version the server reports (its tools' contract, not the package's). */
export const MEMORY_MCP_VERSION = '1.0.0';

/** What the server tells a client about itself when it connects. */
function instructions(agent: string): string {
  return [
    `Engram: the long-term memory of agent ${agent}. Every message of its conversations is kept, with summaries, facts and (for a being) scenes.`,
    'Search memory (memory_search) before answering what may depend on earlier conversations, and read around a hit with memory_browse.',
    'Save durable facts the user states or asks you to remember (memory_save); retract ones that stopped being true (memory_forget).',
    'context_build gives the whole prompt for a message at once; recall, recall_memory and search_memory reach the scene memory of a being.',
  ].join(' ');
}

/**
 * An MCP server over one tenant's and one agent's memory: the nine tools, each calling an
 * Engram RPC through `call` with the server's tenant. Connect it to a transport (stdio, or one
 * streamable HTTP request: see handleMcpHttpRequest). Throws when the tenant or agent is no
 * valid name, so a misconfigured server never starts.
 */
export function createMemoryMcpServer(options: MemoryMcpOptions): McpServer {
  for (const [what, value] of [
    ['tenant', options.tenant],
    ['agent', options.agent],
  ] as const)
    if (!isValidToken(value))
      throw new Error(`${what} must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(value)})`);
  const server = new McpServer(
    { name: 'engram', title: 'Engram memory', version: MEMORY_MCP_VERSION },
    { instructions: instructions(options.agent) },
  );
  const scope = toolScope(options);
  for (const tool of MEMORY_TOOLS) tool.install(server, scope);
  return server;
}
