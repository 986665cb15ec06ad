import type { MastraMemory } from '@mastra/core/memory' with { 'resolution-mode': 'import' };
import { z } from 'zod';
import type { EngramMemory } from './engram-memory';
import { createTool } from './mastra-core';

/** Tools as a Mastra memory gives them to its agent. */
export type MemoryTools = ReturnType<MastraMemory['listTools']>;

/** The Engram agent of the resource the tool runs for. */
function agentOfCall(memory: EngramMemory, context: unknown): string {
  const resourceId = (context as { agent?: { resourceId?: string } } | undefined)?.agent?.resourceId;
  if (!resourceId)
    throw new Error('Engram memory tools need the run’s resource (memory: { thread, resource })');
  return memory.agentOf(resourceId);
}

/**
 * `remember` keeps a fact in the resource's long-term memory (engram.save); `searchMemory`
 * searches what it remembers (engram.search). The agent gets them with the memory.
 */
export function engramTools(memory: EngramMemory): MemoryTools {
  return {
    remember: createTool({
      id: 'remember',
      description: 'Keep a fact in long-term memory, for this and every later conversation.',
      inputSchema: z.object({ fact: z.string().describe('The fact, as one full sentence.') }),
      execute: async ({ fact }, context) => {
        const saved = await memory.engram.save({ agent: agentOfCall(memory, context), content: fact });
        return saved.deduplicated ? 'Already remembered.' : 'Remembered.';
      },
    }),
    searchMemory: createTool({
      id: 'search-memory',
      description: 'Search long-term memory: earlier conversations and remembered facts.',
      inputSchema: z.object({ query: z.string().describe('What to look for.') }),
      execute: async ({ query }, context) => {
        const agent = agentOfCall(memory, context);
        // Strong: a fact remembered a moment ago is found.
        const found = await memory.engram.search({ query, filters: { agent }, consistency: 'strong' });
        return found.hits.map((hit) => `- ${hit.content}`).join('\n') || 'Nothing found.';
      },
    }),
  };
}
