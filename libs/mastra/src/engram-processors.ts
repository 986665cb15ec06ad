import type { MessageList } from '@mastra/core/agent' with { 'resolution-mode': 'import' };
import type { RequestContext } from '@mastra/core/request-context' with { 'resolution-mode': 'import' };
import type { MastraDBMessage } from '@mastra/core/memory' with { 'resolution-mode': 'import' };
import type { InputProcessor, OutputProcessor } from '@mastra/core/processors' with {
  'resolution-mode': 'import',
};
import type { EngramMemory } from './engram-memory';
import { parseMemoryRequestContext } from './mastra-core';
import { textOf } from './mastra-messages';

/** The thread and resource of the run, as the agent put them in the request context. */
function threadOfRun(requestContext: RequestContext | undefined) {
  const memory = parseMemoryRequestContext(requestContext);
  const threadId = memory?.thread?.id;
  const resourceId = memory?.resourceId ?? memory?.thread?.resourceId;
  return threadId && resourceId
    ? { threadId, resourceId, readOnly: memory?.memoryConfig?.readOnly === true }
    : undefined;
}

/** Before the model: the thread's newest messages from Engram. */
export function historyProcessor(memory: EngramMemory, lastMessages: number): InputProcessor {
  return {
    id: 'engram-history',
    name: 'Engram history',
    async processInput({ messageList, requestContext }) {
      const run = threadOfRun(requestContext);
      if (!run || lastMessages <= 0) return messageList;
      const history = await memory.threadMessages(run.threadId, lastMessages);
      for (const message of history) messageList.add(message, 'memory');
      return messageList;
    },
  };
}

/** Before the model: what Engram's context build remembers for this thread and message, as a system message. */
export function contextProcessor(memory: EngramMemory): InputProcessor {
  return {
    id: 'engram-context',
    name: 'Engram context',
    async processInput({ messageList, requestContext }) {
      const run = threadOfRun(requestContext);
      if (!run) return messageList;
      const current = lastUserText(messageList);
      const blocks = await memory.memoryBlocks(memory.agentOf(run.resourceId), run.threadId, current);
      if (blocks.length > 0) messageList.addSystem(blocks.join('\n\n'), 'memory');
      return messageList;
    },
  };
}

/** After the run: its new messages (the input and the response) as one turn, unless the run's memory is read-only. */
export function saveProcessor(memory: EngramMemory): OutputProcessor {
  return {
    id: 'engram-save',
    name: 'Engram save',
    async processOutputResult({ messageList, requestContext, result }) {
      const run = threadOfRun(requestContext);
      if (!run || run.readOnly) return messageList;
      const response = messageList.get.response.db();
      // A failed run with no answer leaves nothing to keep.
      if (result?.finishReason === 'error' && response.length === 0) return messageList;
      const messages = [...messageList.get.input.db(), ...response].map((m): MastraDBMessage => ({
        ...m,
        threadId: run.threadId,
        resourceId: run.resourceId,
      }));
      if (messages.length > 0) await memory.saveMessages({ messages });
      return messageList;
    },
  };
}

/** The text of the run's newest user message: what the context build searches memory for. */
function lastUserText(messageList: MessageList): string {
  const user = messageList.get.input.db().findLast((m) => m.role === 'user');
  return user ? textOf(user) : '';
}
