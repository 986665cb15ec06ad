import type { ContextBlock } from '@engram/client';
import { STABLE_PREFIX_LAYERS } from '@engram/context';
import type { Prompt, PromptMessage } from './ai-sdk-types';
import { lastUserIndex, textOf } from './turn-messages';

/** A block of Engram's context as the prompt needs it. */
export type MemoryBlock = Pick<ContextBlock, 'role' | 'layer' | 'text'>;

/**
 * The prompt with Engram's context in front, nothing said twice:
 * 1. Engram's stable prefix (identity, persona, workspace, tools: what `prefixHash` hashes), so a
 *    provider's prompt cache keeps it from call to call;
 * 2. the caller's system messages, which extend that prefix when they do not change;
 * 3. Engram's other system blocks (sticky facts, relevant memory, skills, summary …);
 * 4. Engram's conversation blocks (snapshot, recent conversation), in Engram's order;
 * 5. the caller's earlier messages that Engram does not hold yet (notYetInMemory);
 * 6. the user's message and what this turn's earlier steps added after it.
 */
export function promptWithMemory(blocks: readonly MemoryBlock[], prompt: Prompt): Prompt {
  const shown = blocks.filter((block) => block.text.trim() !== '');
  const stable = shown.findIndex((block) => !STABLE_PREFIX_LAYERS.some((layer) => layer === block.layer));
  const prefix = stable < 0 ? shown : shown.slice(0, stable);
  const rest = stable < 0 ? [] : shown.slice(stable);
  const userIndex = lastUserIndex(prompt);
  const conversation = (messages: Prompt) => messages.filter((message) => message.role !== 'system');
  return [
    ...prefix.map(messageOf),
    ...prompt.filter((message) => message.role === 'system'),
    ...rest.filter((block) => block.role === 'system').map(messageOf),
    ...rest.filter((block) => block.role !== 'system').map(messageOf),
    ...notYetInMemory(
      conversation(prompt.slice(0, userIndex)),
      rest.filter((block) => block.layer === 'recent'),
    ),
    ...conversation(prompt.slice(userIndex)),
  ];
}

/**
 * The caller's earlier messages that Engram's recent conversation does not show: Engram holds
 * every turn up to the one of its newest user message, so the caller's copy of that turn and of
 * all before it goes, and what follows (said since, not stored yet) stays. When Engram shows
 * none of them (a new session, history from elsewhere), the caller's messages all stay.
 */
export function notYetInMemory(history: Prompt, recent: readonly MemoryBlock[]): Prompt {
  const shown = newestShown(
    history,
    recent.filter((block) => block.role === 'user').map((block) => block.text.trim()),
  );
  if (shown < 0) return history;
  const next = history.findIndex((message, i) => i > shown && message.role === 'user');
  return next < 0 ? [] : history.slice(next);
}

/**
 * Where in the history the newest of Engram's user messages is: the last user message whose
 * run of user messages up to it reads as Engram's do (as far back as both go), so a message
 * said twice ("yes") is placed by the ones before it; -1 when there is none.
 */
function newestShown(history: Prompt, shown: readonly string[]): number {
  const said = history.flatMap((message, i) =>
    message.role === 'user' ? [{ i, text: textOf(message).trim() }] : [],
  );
  for (let last = said.length - 1; last >= 0 && shown.length > 0; last--) {
    const run = Math.min(shown.length, last + 1);
    if (shown.slice(-run).every((text, k) => said[last - run + 1 + k]!.text === text)) return said[last]!.i;
  }
  return -1;
}

/** A block as a prompt message of its role. */
function messageOf(block: MemoryBlock): PromptMessage {
  if (block.role === 'system') return { role: 'system', content: block.text };
  return {
    role: block.role === 'user' ? 'user' : 'assistant',
    content: [{ type: 'text', text: block.text }],
  };
}
