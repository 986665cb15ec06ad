import { EngramNotFoundError, type EngramClient } from '@engram/client';
import { tool, type AgentInputItem, type CallModelInputFilter, type Tool } from '@openai/agents-core';
import { z } from 'zod';
import type { EngramSession } from './engram-session';

export interface EngramContextOptions {
  /** The model the prompt is for (its window decides the budget; default Engram's). */
  readonly model?: string;
}

/**
 * A `callModelInputFilter` that adds to the agent's instructions what Engram puts into the next
 * prompt for this session (identity, sticky facts, relevant memory, summaries …), all but the
 * recent conversation, which the session already gives the model.
 */
export function engramContext(
  session: EngramSession,
  options: EngramContextOptions = {},
): CallModelInputFilter {
  return async ({ modelData }) => {
    const memory = await memoryBlocks(session, lastUserText(modelData.input), options.model);
    return { ...modelData, instructions: [modelData.instructions, ...memory].filter(Boolean).join('\n\n') };
  };
}

/** The texts of the context build's blocks but the recent conversation; none for an agent Engram does not know yet. */
async function memoryBlocks(session: EngramSession, currentMessage: string, model: string | undefined) {
  try {
    const context = await session.engram.buildContext({
      agent: session.agent,
      sessionKey: session.sessionKey,
      currentMessage,
      model,
    });
    return context.blocks.filter((b) => b.layer !== 'recent').map((b) => b.text);
  } catch (error) {
    // An agent with no profile and no conversation yet has nothing to remember.
    if (error instanceof EngramNotFoundError) return [];
    throw error;
  }
}

/** The text of the newest user message: what the context build searches memory for. */
function lastUserText(input: readonly AgentInputItem[]): string {
  const last = input.findLast((item) => 'role' in item && item.role === 'user');
  if (!last || !('content' in last)) return '';
  const content: unknown = last.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join(' ')
    : '';
}

export interface EngramToolsOptions {
  /** The Engram agent whose memory the tools use (default: the client's agent). */
  readonly agent?: string;
}

/**
 * Two function tools over Engram: `remember` keeps a fact in the agent's long-term memory
 * (engram.save), `search_memory` searches what the agent remembers (engram.search).
 */
export function engramTools<TContext = unknown>(
  engram: EngramClient,
  options: EngramToolsOptions = {},
): Tool<TContext>[] {
  const agent = options.agent ?? engram.agent;
  return [
    tool<z.ZodObject<{ fact: z.ZodString }>, TContext>({
      name: 'remember',
      description: 'Keep a fact in long-term memory, for this and every later conversation.',
      parameters: z.object({ fact: z.string().describe('The fact, as one full sentence.') }),
      execute: async ({ fact }) => {
        const saved = await engram.save({ agent, content: fact });
        return saved.deduplicated ? 'Already remembered.' : 'Remembered.';
      },
    }),
    tool<z.ZodObject<{ query: z.ZodString }>, TContext>({
      name: 'search_memory',
      description: 'Search long-term memory: earlier conversations and remembered facts.',
      parameters: z.object({ query: z.string().describe('What to look for.') }),
      execute: async ({ query }) => {
        // Strong: a fact remembered a moment ago is found.
        const found = await engram.search({ query, filters: { agent }, consistency: 'strong' });
        return found.hits.map((hit) => `- ${hit.content}`).join('\n') || 'Nothing found.';
      },
    }),
  ];
}
