import { EngramNotFoundError, Rpcs, type EngramClient, type TranscriptMessage } from '@engram/client';
import type { InputProcessor, OutputProcessor } from '@mastra/core/processors' with {
  'resolution-mode': 'import',
};
import type {
  MastraDBMessage,
  MemoryConfigInternal,
  StorageThreadType,
  WorkingMemoryTemplate,
} from '@mastra/core/memory' with { 'resolution-mode': 'import' };
import type {
  StorageCloneThreadInput,
  StorageCloneThreadOutput,
  StorageListMessagesInput,
  StorageListThreadsInput,
  StorageListThreadsOutput,
} from '@mastra/core/storage' with { 'resolution-mode': 'import' };
import { MastraMemory } from './mastra-core';
import { contextProcessor, historyProcessor, saveProcessor } from './engram-processors';
import { engramTools, type MemoryTools } from './engram-tools';
import {
  latestVersions,
  mastraMessagesOf,
  resourceAgent,
  threadOf,
  threadSettings,
  turnIdOf,
  turnMessagesOf,
  type ConversationInit,
} from './mastra-messages';
import { clonedMessages, pageOf, similarMessages, threadsPage, type RecallPage } from './recall';

export interface EngramMemoryOptions {
  /** Engram, as the application's client (`EngramClient.connect` or `EngramClient.http`). */
  readonly engram: EngramClient;
  /**
   * One Engram agent for every thread. By default each Mastra resource (the user whose memory
   * it is) is its own Engram agent, as mem0's user_id is: its threads, facts and context apart.
   */
  readonly agent?: string;
  /** How many of the thread's newest messages each prompt holds (default 10, as Mastra's Memory). */
  readonly lastMessages?: number;
  /** Add what Engram's context build remembers (all but the recent conversation) to each prompt (default true). */
  readonly context?: boolean;
  /** The memory's id in Mastra (default "engram"). */
  readonly id?: string;
}

/** A save this memory published, until the thread's transcript shows it. */
interface UnseenSave {
  readonly turnId: string;
  readonly messages: readonly MastraDBMessage[];
}

/** conversations.list's largest page. */
const CONVERSATIONS_PAGE = 1000;
/** How many facts working memory shows. */
const WORKING_MEMORY_FACTS = 100;
/** browse's largest page. */
const BROWSE_PAGE = 500;

/**
 * Mastra memory kept in Engram: a thread is an Engram conversation (the thread id its session
 * key) of the resource's agent; the agent's history comes from the conversation's transcript,
 * what it says is published as turns, and Engram's context build (facts, relevant memory,
 * summaries) goes into every prompt. Engram embeds and searches itself: no vector store or
 * embedder to configure.
 */
export class EngramMemory extends MastraMemory {
  readonly engram: EngramClient;
  private readonly options: EngramMemoryOptions;
  /** Threads saved here: their newest attributes, which ride on every turn of the thread. */
  private readonly threads = new Map<string, StorageThreadType>();
  /** Saves Engram has not stored yet, by thread: a run straight after another reads them. */
  private readonly unseen = new Map<string, UnseenSave[]>();

  constructor(options: EngramMemoryOptions) {
    super({ id: options.id ?? 'engram', name: 'EngramMemory' });
    this.engram = options.engram;
    this.options = options;
    // Engram is the store: Mastra must not hand this memory its own storage.
    this._hasOwnStorage = true;
  }

  /** The Engram agent whose memory a resource's threads are. */
  agentOf(resourceId: string): string {
    return this.options.agent ?? resourceAgent(resourceId);
  }

  /** The thread history each prompt starts from, then (unless switched off) Engram's context. */
  override async getInputProcessors(): Promise<InputProcessor[]> {
    const history = historyProcessor(this, this.options.lastMessages ?? 10);
    return this.options.context === false ? [history] : [history, contextProcessor(this)];
  }

  /** Saves each run's new messages as one turn. */
  override async getOutputProcessors(): Promise<OutputProcessor[]> {
    return [saveProcessor(this)];
  }

  /** `remember` and `searchMemory`, over the resource's Engram memory. */
  override listTools(): MemoryTools {
    return engramTools(this);
  }

  /** The thread as this memory saved it, else as its stored conversation says; null when neither knows it. */
  async getThreadById({ threadId }: { threadId: string }): Promise<StorageThreadType | null> {
    const saved = this.threads.get(threadId);
    if (saved) return saved;
    const conversation = await this.conversationOf(threadId);
    return conversation ? threadOf(conversation) : null;
  }

  /** Keeps the thread's attributes; they reach Engram with its next turn (Engram has no empty conversation). */
  async saveThread({ thread }: { thread: StorageThreadType }): Promise<StorageThreadType> {
    this.threads.set(thread.id, thread);
    return thread;
  }

  /** New title and metadata (merged) for a thread; they reach Engram with its next turn. */
  async updateThread({
    id,
    title,
    metadata,
  }: {
    id: string;
    title?: string;
    metadata?: Record<string, unknown>;
  }): Promise<StorageThreadType> {
    const thread = await this.getThreadById({ threadId: id });
    if (!thread) throw new Error(`no thread ${id}`);
    return this.saveThread({
      thread: {
        ...thread,
        title: title ?? thread.title,
        metadata: { ...thread.metadata, ...metadata },
        updatedAt: new Date(),
      },
    });
  }

  /** Erases the thread's conversation for good, and what Engram derived from it (Engram's erase). */
  async deleteThread(threadId: string): Promise<void> {
    const conversation = await this.conversationOf(threadId);
    if (conversation) await this.engram.call(Rpcs.erase, { conversationId: conversation.id });
    this.threads.delete(threadId);
    this.unseen.delete(threadId);
  }

  /** Threads of a resource (or all), stored or saved here, filtered and paged. */
  async listThreads(args: StorageListThreadsInput): Promise<StorageListThreadsOutput> {
    const resourceId = args.filter?.resourceId;
    const stored = (
      await this.conversations({ agent: resourceId ? this.agentOf(resourceId) : this.options.agent })
    )
      .map(threadOf)
      .filter((thread) => !this.threads.has(thread.id));
    return threadsPage([...stored, ...this.threads.values()], args);
  }

  /** Publishes the messages, one turn per thread; the same messages saved again are stored once. */
  async saveMessages({
    messages,
  }: {
    messages: MastraDBMessage[];
  }): Promise<{ messages: MastraDBMessage[] }> {
    const byThread = new Map<string, MastraDBMessage[]>();
    for (const m of messages.filter((m) => m.role !== 'system')) {
      byThread.set(m.threadId ?? '', [...(byThread.get(m.threadId ?? '') ?? []), m]);
    }
    for (const [threadId, saved] of byThread) await this.publish(threadId, saved);
    return { messages };
  }

  /** The thread's messages (and, for a search string, similar ones the resource said elsewhere), a page of them. */
  async recall(
    args: StorageListMessagesInput & { threadConfig?: MemoryConfigInternal; vectorSearchString?: string },
  ): Promise<RecallPage> {
    const threadIds = [args.threadId].flat();
    const messages = (await Promise.all(threadIds.map((id) => this.threadMessages(id)))).flat();
    const resourceId = args.resourceId ?? messages[0]?.resourceId;
    const similar =
      args.vectorSearchString && resourceId
        ? await similarMessages(this.engram, this.agentOf(resourceId), args.vectorSearchString, messages)
        : [];
    return pageOf([...messages, ...similar], {
      ...args,
      perPage: args.perPage ?? this.options.lastMessages ?? 10,
    });
  }

  /** What Engram holds as true of the resource: its facts in force, newest first, one per line; null when none. */
  async getWorkingMemory({
    threadId,
    resourceId,
  }: {
    threadId: string;
    resourceId?: string;
  }): Promise<string | null> {
    const agent = await this.agentOfThread(threadId, resourceId);
    const { facts } = await this.engram.call(Rpcs.factsList, {
      agents: [agent],
      limit: WORKING_MEMORY_FACTS,
    });
    return facts.length > 0 ? facts.map((fact) => `- ${fact.content}`).join('\n') : null;
  }

  /** Engram shapes what it remembers itself: there is no template to fill. */
  async getWorkingMemoryTemplate(): Promise<WorkingMemoryTemplate | null> {
    return null;
  }

  /** Keeps the text as a fact of the resource, in every later prompt; Engram's facts are deduplicated and versioned, never overwritten. */
  async updateWorkingMemory(args: {
    threadId: string;
    resourceId?: string;
    workingMemory: string;
  }): Promise<void> {
    await this.__experimental_updateWorkingMemoryVNext(args);
  }

  /** As updateWorkingMemory, saying whether Engram already remembered it. */
  async __experimental_updateWorkingMemoryVNext({
    threadId,
    resourceId,
    workingMemory,
  }: {
    threadId: string;
    resourceId?: string;
    workingMemory: string;
  }): Promise<{ success: boolean; reason: string }> {
    const agent = await this.agentOfThread(threadId, resourceId);
    const saved = await this.engram.save({ agent, content: workingMemory });
    return { success: true, reason: saved.deduplicated ? 'already remembered' : 'remembered' };
  }

  /** Engram keeps every word: single messages cannot be deleted. */
  async deleteMessages(): Promise<void> {
    throw new Error(
      'Engram keeps every word and deletes no single message; deleteThread erases a whole thread for good',
    );
  }

  /** A new thread with a copy of the source thread's messages (new ids), published as one turn. */
  async cloneThread(args: StorageCloneThreadInput): Promise<StorageCloneThreadOutput> {
    const source = await this.getThreadById({ threadId: args.sourceThreadId });
    if (!source) throw new Error(`no thread ${args.sourceThreadId}`);
    const copied = clonedMessages(await this.threadMessages(source.id), args.options);
    const now = new Date();
    const thread: StorageThreadType = {
      id: args.newThreadId ?? this.generateId({ idType: 'thread', source: 'memory' }),
      resourceId: args.resourceId ?? source.resourceId,
      title: args.title ?? source.title,
      metadata: {
        ...source.metadata,
        ...args.metadata,
        clone: { sourceThreadId: source.id, clonedAt: now, lastMessageId: copied.at(-1)?.id },
      },
      createdAt: now,
      updatedAt: now,
    };
    const messageIdMap = Object.fromEntries(
      copied.map((m) => [
        m.id,
        this.generateId({ idType: 'message', source: 'memory', threadId: thread.id }),
      ]),
    );
    const clones = copied.map((m) => ({
      ...m,
      id: messageIdMap[m.id]!,
      threadId: thread.id,
      resourceId: thread.resourceId,
    }));
    await this.saveThread({ thread });
    if (clones.length > 0) await this.publish(thread.id, clones);
    return { thread, clonedMessages: clones, messageIdMap };
  }

  /** The agent of the resource, else of the thread's resource. */
  private async agentOfThread(threadId: string, resourceId: string | undefined): Promise<string> {
    const owner = resourceId ?? (await this.getThreadById({ threadId }))?.resourceId;
    if (!owner) throw new Error(`thread ${threadId} has no resource`);
    return this.agentOf(owner);
  }

  /** The texts of the context build's blocks for a thread, but the recent conversation; none for an agent Engram does not know. */
  async memoryBlocks(agent: string, threadId: string, currentMessage: string): Promise<string[]> {
    try {
      const context = await this.engram.buildContext({ agent, sessionKey: threadId, currentMessage });
      return context.blocks.filter((b) => b.layer !== 'recent').map((b) => b.text);
    } catch (error) {
      // An agent with no profile and no conversation yet has nothing to remember.
      if (error instanceof EngramNotFoundError) return [];
      throw error;
    }
  }

  /**
   * The thread's messages in time order, each in its newest version: its transcript (only its
   * `newest` messages when given) and what this memory saved that Engram has not stored yet.
   */
  async threadMessages(threadId: string, newest?: number): Promise<MastraDBMessage[]> {
    const thread = await this.getThreadById({ threadId });
    if (!thread) return [];
    const transcript = await this.transcriptOf(threadId, this.agentOf(thread.resourceId), newest);
    const storedTurns = new Set(transcript.map((m) => m.turnId));
    const unseen = (this.unseen.get(threadId) ?? []).filter((save) => !storedTurns.has(save.turnId));
    this.unseen.set(threadId, unseen);
    // A save stored before the newest messages is no longer seen, but falls before them in time.
    const messages = latestVersions([
      ...mastraMessagesOf(transcript, thread),
      ...unseen.flatMap((save) => save.messages),
    ]).sort((a, b) => +new Date(a.createdAt) - +new Date(b.createdAt));
    return newest === undefined ? messages : messages.slice(-newest);
  }

  /** The messages as one turn of the thread, with its title and settings; read back until Engram stores them. */
  private async publish(threadId: string, messages: MastraDBMessage[]): Promise<void> {
    const thread = await this.getThreadById({ threadId });
    const resourceId = thread?.resourceId ?? messages[0]?.resourceId;
    if (!threadId || !resourceId) throw new Error('EngramMemory saves messages of a thread with a resource');
    const turn = turnMessagesOf(messages);
    const turnId = turnIdOf(threadId, turn);
    await this.engram.publishTurn({
      turnId,
      sessionKey: threadId,
      agent: this.agentOf(resourceId),
      title: thread?.title ?? '',
      settings: threadSettings(
        thread ?? { id: threadId, resourceId, createdAt: new Date(), updatedAt: new Date() },
      ),
      messages: turn,
    });
    this.unseen.set(threadId, [...(this.unseen.get(threadId) ?? []), { turnId, messages }]);
  }

  /** The stored conversation whose session key is the thread id (of the fixed agent, when there is one). */
  private async conversationOf(threadId: string): Promise<(ConversationInit & { id: string }) | undefined> {
    // The query matches conversations holding the id anywhere; the session key must be it.
    const found = await this.conversations({ agent: this.options.agent, query: threadId.slice(0, 200) });
    return found.find((c) => c.sessionKey === threadId);
  }

  /** Every conversation matching the filter, all pages. */
  private async conversations(filter: { agent?: string | undefined; query?: string }) {
    const all: Array<ConversationInit & { id: string }> = [];
    for (let offset = 0; ; offset += CONVERSATIONS_PAGE) {
      const page = await this.engram.call(Rpcs.conversationsList, {
        ...filter,
        limit: CONVERSATIONS_PAGE,
        offset,
      });
      all.push(...page.conversations);
      if (all.length >= Number(page.total) || page.conversations.length === 0) return all;
    }
  }

  /** The conversation's transcript in order, whole or its newest messages; empty while it does not exist. */
  private async transcriptOf(
    sessionKey: string,
    agent: string,
    newest?: number,
  ): Promise<TranscriptMessage[]> {
    const messages: TranscriptMessage[] = [];
    let cursor = '';
    try {
      do {
        const page = await this.engram.browse({
          agent,
          sessionKey,
          cursor,
          ...(newest === undefined ? { limit: BROWSE_PAGE } : { direction: 'backward', limit: newest }),
        });
        messages.push(...page.messages);
        cursor = newest === undefined ? page.nextCursor : '';
      } while (cursor);
    } catch (error) {
      // No turn stored yet: the conversation does not exist so far.
      if (!(error instanceof EngramNotFoundError)) throw error;
    }
    return messages;
  }
}
