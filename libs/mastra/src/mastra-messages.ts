import { createHash } from 'node:crypto';
import { entityAgent } from '@engram/memory-core';
import { fromJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import { timestampFromDate, type TranscriptMessage, type TurnInit } from '@engram/client';
import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory' with {
  'resolution-mode': 'import',
};

/** A message of a turn as publishTurn takes it. */
export type TurnMessageInit = NonNullable<TurnInit['messages']>[number];

/** A conversation as conversations.list answers it. */
export interface ConversationInit {
  readonly agent: string;
  readonly sessionKey: string;
  readonly title: string;
  readonly settings?: JsonObject | undefined;
  readonly createdAt?: { readonly seconds: bigint; readonly nanos: number } | undefined;
  readonly lastMessageAt?: { readonly seconds: bigint; readonly nanos: number } | undefined;
}

/** Where Mastra's own data sits in a message's metadata and a conversation's settings. */
const KEY = 'mastra';

/**
 * The Engram agent whose memory a Mastra resource is, as the mem0-compatible API and the importers
 * map a foreign id: its id when that is a valid agent name, else its safe characters and 8 hex
 * digits of its hash, so the same resource always lands in the same memory.
 */
export const resourceAgent = (resourceId: string): string => entityAgent(resourceId);

/** One Engram message per Mastra message: its role and text for Engram, the message whole in metadata. */
export function turnMessagesOf(messages: readonly MastraDBMessage[]): TurnMessageInit[] {
  return messages.map((message) => ({
    role: message.role === 'signal' ? 'system' : message.role,
    ...searchableFieldsOf(message),
    createdAt: timestampFromDate(new Date(message.createdAt)),
    metadata: { [KEY]: { message: JSON.parse(JSON.stringify(message)) as JsonObject } },
  }));
}

/**
 * The turn id of a save: the same messages (ids and content) are the same turn, stored once; a
 * message saved again with new content is a new version of it.
 */
export function turnIdOf(threadId: string, messages: readonly TurnMessageInit[]): string {
  // Each message's metadata holds the Mastra message whole: its id and every word.
  const digest = createHash('sha256').update(JSON.stringify([threadId, messages.map((m) => m.metadata)]));
  return `mastra-${digest.digest('hex').slice(0, 40)}`;
}

/**
 * The thread's Mastra messages from its transcript, in order: each message's newest version, and
 * what other runtimes said as plain user and assistant text (tool and system messages left out).
 */
export function mastraMessagesOf(
  transcript: readonly TranscriptMessage[],
  thread: { readonly id: string; readonly resourceId: string },
): MastraDBMessage[] {
  return latestVersions(transcript.flatMap((stored) => mastraMessageOf(stored, thread) ?? []));
}

/** Each message once, in the place of its first version, as its last version says it. */
export function latestVersions(messages: readonly MastraDBMessage[]): MastraDBMessage[] {
  // Map keeps the first key's place and the last value set.
  return [...new Map(messages.map((m) => [m.id, m])).values()];
}

/** The Mastra message a stored message keeps; a plain one for user and assistant text other runtimes said. */
function mastraMessageOf(
  stored: TranscriptMessage,
  thread: { readonly id: string; readonly resourceId: string },
): MastraDBMessage | undefined {
  const kept = (stored.metadata?.[KEY] as JsonObject | undefined)?.['message'];
  if (kept && typeof kept === 'object') {
    const message = kept as unknown as MastraDBMessage;
    return { ...message, createdAt: new Date(message.createdAt) };
  }
  if ((stored.role !== 'user' && stored.role !== 'assistant') || stored.content.trim() === '')
    return undefined;
  return {
    id: `engram-${stored.id}`,
    role: stored.role,
    createdAt: stored.createdAt ? dateOf(stored.createdAt) : new Date(0),
    threadId: thread.id,
    resourceId: thread.resourceId,
    content: { format: 2, parts: [{ type: 'text', text: stored.content }], content: stored.content },
  };
}

/** The Mastra thread an Engram conversation is: its session key, title and the settings Mastra gave it. */
export function threadOf(conversation: ConversationInit): StorageThreadType {
  const own = (conversation.settings?.[KEY] ?? {}) as {
    resourceId?: string;
    metadata?: Record<string, unknown>;
    createdAt?: string;
  };
  const createdAt = own.createdAt
    ? new Date(own.createdAt)
    : conversation.createdAt
      ? dateOf(conversation.createdAt)
      : new Date(0);
  return {
    id: conversation.sessionKey,
    resourceId: own.resourceId ?? conversation.agent,
    title: conversation.title,
    metadata: own.metadata ?? {},
    createdAt,
    updatedAt: conversation.lastMessageAt ? dateOf(conversation.lastMessageAt) : createdAt,
  };
}

/** The conversation settings that keep a thread's resource, metadata and creation time. */
export function threadSettings(thread: StorageThreadType): JsonObject {
  return {
    [KEY]: JSON.parse(
      JSON.stringify({
        resourceId: thread.resourceId,
        metadata: thread.metadata ?? {},
        createdAt: thread.createdAt,
      }),
    ) as JsonObject,
  };
}

/** The text of a message's text parts (or its legacy content string). */
export function textOf(message: MastraDBMessage): string {
  const parts = message.content.parts ?? [];
  const text = parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
  return text || (typeof message.content.content === 'string' ? message.content.content : '');
}

interface SearchableFields {
  readonly content: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly toolArgs?: Value;
  readonly toolResult?: Value;
}

/** Engram's searchable fields: the text, else the first tool call (name, arguments, result), else the part kinds. */
function searchableFieldsOf(message: MastraDBMessage): SearchableFields {
  const text = textOf(message);
  if (text) return { content: text };
  const call = message.content.parts.find((part) => part.type === 'tool-invocation');
  if (call?.type === 'tool-invocation') {
    const { toolName, toolCallId, args, result } = call.toolInvocation;
    return {
      content: '',
      toolName,
      toolCallId,
      toolArgs: valueOf(args),
      ...(result === undefined ? {} : { toolResult: valueOf(result) }),
    };
  }
  // Engram keeps no message without words: a file or an image alone is named by its kind.
  return { content: `[${message.content.parts.map((part) => part.type).join(', ')}]` };
}

/** Any JSON-able value as the protobuf Value a turn's tool fields carry. */
function valueOf(json: unknown) {
  return fromJson(ValueSchema, JSON.parse(JSON.stringify(json ?? null)) as JsonValue);
}

/** A protobuf Timestamp as a Date. */
function dateOf(timestamp: { readonly seconds: bigint; readonly nanos: number }): Date {
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1e6));
}
