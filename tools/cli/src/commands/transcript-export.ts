import type { NatsConnection } from '@nats-io/transport-node';
import { Rpcs, type Conversation, type TranscriptMessage } from '@engram/contracts';
import { turnLine, turnsOfConversation } from '@engram/memory-core';
import { callRpc } from '@engram/messaging';
import { withNats } from './engram-rpc';
import type { Progress } from './progress';

/** Conversations asked for at once, and messages per memory_browse page (its most). */
const CONVERSATIONS_PAGE = 1000;
const MESSAGES_PAGE = 500;

export interface ExportOptions {
  readonly tenantId: string;
  /** Only this agent's conversations. */
  readonly agent?: string;
  /** Only this conversation. */
  readonly conversationId?: string;
  readonly natsUrl?: string;
  readonly progress?: Progress;
}

export interface ExportResult {
  readonly conversations: number;
  readonly turns: number;
  readonly messages: number;
}

/**
 * Exports a tenant's transcripts (an agent's, or one conversation) as JSON Lines, one turn a
 * line (see turnsOfConversation): conversations in mem.rpc.conversations.list's order, each
 * read whole with memory_browse pages, its turns in transcript order. `write` gets each line.
 */
export function exportTranscript(
  options: ExportOptions,
  write: (line: string) => Promise<void> | void,
): Promise<ExportResult> {
  return withNats(async (nc) => {
    const call = { tenantId: options.tenantId, timeoutMs: 30_000 };
    const conversations = await listConversations(nc, options, call);
    const total = conversations.reduce((n, c) => n + Number(c.messageCount), 0);
    let turns = 0;
    let messages = 0;
    options.progress?.start(total);
    try {
      for (const conversation of conversations) {
        const stored = await readConversation(nc, conversation.id, call, (n) =>
          options.progress?.increment(n),
        );
        for (const turn of turnsOfConversation(conversation, stored)) {
          await write(turnLine(turn));
          turns += 1;
        }
        messages += stored.length;
      }
    } finally {
      options.progress?.stop();
    }
    return { conversations: conversations.length, turns, messages };
  }, options.natsUrl);
}

/** The conversations an export covers (the tenant's, an agent's or one), in mem.rpc.conversations.list's order. */
export async function listConversations(
  nc: NatsConnection,
  options: ExportOptions,
  call: { tenantId: string; timeoutMs: number },
): Promise<Conversation[]> {
  const all: Conversation[] = [];
  for (;;) {
    const page = await callRpc(
      nc,
      Rpcs.conversationsList,
      {
        agent: options.agent ?? '',
        conversationId: options.conversationId ?? '',
        limit: CONVERSATIONS_PAGE,
        offset: all.length,
      },
      call,
    );
    all.push(...page.conversations);
    if (page.conversations.length === 0 || BigInt(all.length) >= page.total) return all;
  }
}

/** Every message of a conversation, in transcript order, page by page. */
async function readConversation(
  nc: NatsConnection,
  conversationId: string,
  call: { tenantId: string; timeoutMs: number },
  read: (messages: number) => void,
): Promise<TranscriptMessage[]> {
  const messages: TranscriptMessage[] = [];
  let cursor = '';
  do {
    const page = await callRpc(nc, Rpcs.browse, { conversationId, cursor, limit: MESSAGES_PAGE }, call);
    messages.push(...page.messages);
    read(page.messages.length);
    cursor = page.nextCursor;
  } while (cursor !== '');
  return messages;
}
