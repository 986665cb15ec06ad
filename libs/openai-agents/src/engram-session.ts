import { randomUUID } from 'node:crypto';
import { EngramNotFoundError, type EngramClient, type TranscriptMessage } from '@engram/client';
import type { AgentInputItem, Session } from '@openai/agents-core';
import {
  editMessage,
  entriesOf,
  isClearEntry,
  sessionItemsOf,
  turnIdOf,
  turnMessagesOf,
  type SessionEdit,
  type SessionEntry,
  type SessionItem,
  type TurnMessageInit,
} from './session-items';

export interface EngramSessionOptions {
  /** Engram, as the agent runtime's client (`EngramClient.connect` or `EngramClient.http`). */
  readonly engram: EngramClient;
  /** The conversation's session key in Engram (default: a new random one, as MemorySession does). */
  readonly sessionKey?: string;
  /** The Engram agent whose conversation it is (default: the client's agent). */
  readonly agent?: string;
}

/** A turn this session published, until Engram's transcript shows it. */
interface UnseenTurn {
  readonly turnId: string;
  readonly entries: readonly SessionEntry[];
}

/** Browse's largest page. */
const PAGE = 500;

/**
 * An OpenAI Agents SDK session whose history is an Engram conversation: every item added is
 * published as a turn (kept whole in its messages' metadata) and read back in order. Engram
 * keeps every word, so popItem and clearSession record an edit in the conversation rather than
 * deleting: the session no longer holds those items, Engram's memory still does.
 */
export class EngramSession implements Session {
  readonly engram: EngramClient;
  readonly sessionKey: string;
  readonly agent: string;
  /** Published turns Engram has not stored yet: the session reads its own writes meanwhile. */
  private unseen: UnseenTurn[] = [];
  /** The newest turn of the conversation, which the next turn's id follows; undefined until read. */
  private tail: string | undefined;
  private work: Promise<unknown> = Promise.resolve();

  constructor(options: EngramSessionOptions) {
    const agent = options.agent ?? options.engram.agent;
    if (!agent) throw new Error('EngramSession needs an agent: set it on the client or in the options');
    this.engram = options.engram;
    this.agent = agent;
    this.sessionKey = options.sessionKey ?? randomUUID();
  }

  /** The session key of the Engram conversation. */
  async getSessionId(): Promise<string> {
    return this.sessionKey;
  }

  /** The session's items in order; with a limit, the newest `limit` of them. */
  getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.serially(async () => {
      const items = (await this.held()).map((held) => held.item);
      if (limit === undefined) return items;
      return limit > 0 ? items.slice(-limit) : [];
    });
  }

  /** Publishes the items as one turn; adding the same items again after a failure stores them once. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.serially(() => this.publish(turnMessagesOf(items)));
  }

  /** Takes the newest item out of the session (Engram keeps its words) and answers it. */
  popItem(): Promise<AgentInputItem | undefined> {
    return this.serially(async () => {
      const newest = (await this.held()).at(-1);
      if (newest) await this.publishEdit({ drop: newest.ref });
      return newest?.item;
    });
  }

  /** Empties the session: it holds nothing said before (Engram keeps every word of it). */
  async clearSession(): Promise<void> {
    await this.serially(async () => {
      if ((await this.held()).length > 0) await this.publishEdit({ clear: true });
    });
  }

  /** One operation at a time, in call order: each reads what the one before wrote. */
  private serially<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.work.then(operation);
    this.work = result.catch(() => undefined);
    return result;
  }

  /** The items the session holds now, each with the message that keeps it. */
  private async held(): Promise<SessionItem[]> {
    return sessionItemsOf(await this.entries());
  }

  /** The conversation from its last clear on: what Engram stored, then what it has not stored yet. */
  private async entries(): Promise<SessionEntry[]> {
    const stored = await this.storedSinceLastClear();
    const storedTurns = new Set(stored.map((e) => e.turnId));
    this.unseen = this.unseen.filter((turn) => !storedTurns.has(turn.turnId));
    const entries = [...stored, ...this.unseen.flatMap((turn) => turn.entries)];
    this.tail = entries.at(-1)?.turnId ?? '';
    return entries;
  }

  /** Engram's transcript of the conversation, newest page first, back to its last clear or its start. */
  private async storedSinceLastClear(): Promise<SessionEntry[]> {
    const messages: TranscriptMessage[] = [];
    let cursor = '';
    do {
      const page = await this.page(cursor);
      messages.unshift(...page.messages);
      cursor = page.prevCursor;
    } while (cursor && !entriesOf(messages).some(isClearEntry));
    return entriesOf(messages);
  }

  /** One page of the transcript, newest first from the cursor; empty while the conversation does not exist. */
  private async page(cursor: string): Promise<{ messages: TranscriptMessage[]; prevCursor: string }> {
    try {
      return await this.engram.browse({
        agent: this.agent,
        sessionKey: this.sessionKey,
        direction: 'backward',
        limit: PAGE,
        cursor,
      });
    } catch (error) {
      // No turn stored yet: the conversation does not exist so far.
      if (error instanceof EngramNotFoundError) return { messages: [], prevCursor: '' };
      throw error;
    }
  }

  /** Records an edit as a turn of its own. */
  private publishEdit(edit: SessionEdit): Promise<void> {
    return this.publish([editMessage(edit)]);
  }

  /** Publishes messages as the turn after the newest one: the same messages after the same turn are stored once. */
  private async publish(messages: TurnMessageInit[]): Promise<void> {
    if (this.tail === undefined) await this.entries();
    const turnId = turnIdOf(this.sessionKey, this.tail!, messages);
    await this.engram.publishTurn({ turnId, sessionKey: this.sessionKey, agent: this.agent, messages });
    this.unseen.push({
      turnId,
      entries: entriesOf(
        messages.map((m) => ({ turnId, role: m.role ?? '', content: m.content ?? '', metadata: m.metadata })),
      ),
    });
    this.tail = turnId;
  }
}
