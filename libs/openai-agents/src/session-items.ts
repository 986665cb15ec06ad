import { createHash } from 'node:crypto';
import { fromJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { TurnInit } from '@engram/client';
import type { AgentInputItem } from '@openai/agents-core';

/** A message of a turn as publishTurn takes it. */
export type TurnMessageInit = NonNullable<TurnInit['messages']>[number];

/** Where the session's own bookkeeping sits in a message's metadata. */
const KEY = 'openaiAgents';

/** A message of the session's conversation: as Engram stored it (browse), or as the session published it. */
export interface SessionEntry {
  readonly turnId: string;
  /** Its place in its turn (0 for the first message). */
  readonly position: number;
  readonly role: string;
  readonly content: string;
  readonly metadata?: JsonObject | undefined;
}

/** A message of the conversation by its turn and place in it: known before Engram stores it. */
export interface EntryRef {
  readonly turnId: string;
  readonly position: number;
}

/** What popItem and clearSession record: an item no longer in the session, or none before this point. */
export type SessionEdit = { readonly drop: EntryRef } | { readonly clear: true };

/** An item the session holds, with the message that keeps it. */
export interface SessionItem {
  readonly item: AgentInputItem;
  readonly ref: EntryRef;
}

/** The Engram messages that keep the items, one each, every item whole in its metadata. */
export function turnMessagesOf(items: readonly AgentInputItem[]): TurnMessageInit[] {
  return items.map((item) => ({ ...searchableFieldsOf(item), metadata: { [KEY]: { item: jsonOf(item) } } }));
}

/** The message that records an edit; its text says what happened, for whoever reads the transcript. */
export function editMessage(edit: SessionEdit): TurnMessageInit {
  const content =
    'drop' in edit
      ? 'Session edit: the runtime took the newest item out of this session (popItem); what was said stays in memory.'
      : 'Session edit: the runtime cleared this session (clearSession); what was said stays in memory.';
  return { role: 'system', content, metadata: { [KEY]: { edit: edit as unknown as JsonObject } } };
}

/**
 * The turn id of messages published after `previousTurnId`: the same items after the same turn
 * are the same turn (a retried add is stored once), the same words later are a new one.
 */
export function turnIdOf(
  sessionKey: string,
  previousTurnId: string,
  messages: readonly TurnMessageInit[],
): string {
  const digest = createHash('sha256').update(JSON.stringify([sessionKey, previousTurnId, messages]));
  return `agents-${digest.digest('hex').slice(0, 40)}`;
}

/** The entries of consecutive messages in order, each with its place in its turn. */
export function entriesOf(messages: ReadonlyArray<Omit<SessionEntry, 'position'>>): SessionEntry[] {
  return messages.map((m, i) => ({ ...m, position: placeInTurn(messages, i) }));
}

/** How many messages of the same turn come just before this one. */
function placeInTurn(messages: ReadonlyArray<{ turnId: string }>, index: number): number {
  let first = index;
  while (first > 0 && messages[first - 1]!.turnId === messages[index]!.turnId) first--;
  return index - first;
}

/** The items the session holds: those after its last clear, but the dropped ones, in order. */
export function sessionItemsOf(entries: readonly SessionEntry[]): SessionItem[] {
  const live = entries.slice(entries.findLastIndex((e) => isClear(editOf(e))) + 1);
  const dropped = new Set(
    live.map((e) => editOf(e)).flatMap((edit) => (edit && 'drop' in edit ? [refKey(edit.drop)] : [])),
  );
  return live.flatMap((entry) => {
    const item = editOf(entry) || dropped.has(refKey(entry)) ? undefined : itemOf(entry);
    return item ? [{ item, ref: { turnId: entry.turnId, position: entry.position } }] : [];
  });
}

/** Whether an entry is a clear: the session holds nothing said before it. */
export function isClearEntry(entry: SessionEntry): boolean {
  return isClear(editOf(entry));
}

/** Whether an edit is a clear. */
function isClear(edit: SessionEdit | undefined): boolean {
  return !!edit && 'clear' in edit;
}

/** A message's ref as one string, for sets. */
function refKey(ref: EntryRef): string {
  return `${ref.turnId}/${ref.position}`;
}

/** The session's own part of a message's metadata, if any. */
function ownMetadata(entry: SessionEntry): JsonObject | undefined {
  const own = entry.metadata?.[KEY];
  return own && typeof own === 'object' && !Array.isArray(own) ? own : undefined;
}

/** The edit a message records, if it is one. */
function editOf(entry: SessionEntry): SessionEdit | undefined {
  return ownMetadata(entry)?.['edit'] as SessionEdit | undefined;
}

/** The item a message keeps; a message some other runtime published becomes a plain message of its role. */
function itemOf(entry: SessionEntry): AgentInputItem | undefined {
  const kept = ownMetadata(entry)?.['item'];
  if (kept !== undefined) return valueOf(kept) as AgentInputItem;
  if (entry.content.trim() === '') return undefined;
  if (entry.role === 'user' || entry.role === 'system') {
    return { type: 'message', role: entry.role, content: entry.content };
  }
  if (entry.role === 'assistant') {
    return {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: entry.content }],
    };
  }
  // A tool message without its call cannot be replayed to a model.
  return undefined;
}

/** What Engram searches and shows of an item: its role, text, and the tool's name, arguments and result. */
function searchableFieldsOf(item: AgentInputItem): TurnMessageInit {
  if (item.type === 'message' || item.type === undefined) {
    // Engram keeps no message without words: an image alone is named by its kind.
    return { role: item.role, content: textOf(item.content) || `[${kindsOf(item.content)}]` };
  }
  if (item.type === 'function_call') {
    return {
      role: 'assistant',
      content: '',
      toolName: item.name,
      toolCallId: item.callId,
      toolArgs: protobufValueOf(parsedArguments(item.arguments)),
    };
  }
  if (item.type === 'function_call_result') {
    return {
      role: 'tool',
      content: textOf(item.output),
      toolName: item.name,
      toolCallId: item.callId,
      toolResult: protobufValueOf(jsonOf(item.output)),
    };
  }
  // Hosted tools, reasoning, computer and shell calls …: named by their type, kept whole in metadata.
  const name = 'name' in item && typeof item.name === 'string' ? item.name : item.type;
  return { role: /_(result|output)$/.test(item.type) ? 'tool' : 'assistant', content: '', toolName: name };
}

/** The text of a message's content or a tool's output: a string, or the text parts of a list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part: { text?: unknown; refusal?: unknown }) =>
      typeof part?.text === 'string' ? part.text : typeof part?.refusal === 'string' ? part.refusal : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** The kinds of a content's parts, comma-separated. */
function kindsOf(content: unknown): string {
  return (Array.isArray(content) ? content : [content])
    .map((part: { type?: unknown }) => String(part?.type))
    .join(', ');
}

/** A call's arguments as JSON; arguments that are not JSON stay their string. */
function parsedArguments(args: string): JsonValue {
  try {
    return JSON.parse(args) as JsonValue;
  } catch {
    return args;
  }
}

/** JSON as the protobuf Value a turn's tool fields carry. */
function protobufValueOf(json: JsonValue) {
  return fromJson(ValueSchema, json);
}

/** JSON of an item; bytes (an image's or file's data) become {"$bytes": base64}. */
function jsonOf(value: unknown): JsonValue {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(jsonOf);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, jsonOf(v)]),
    );
  }
  return value as JsonValue;
}

/** The item from its JSON, bytes restored. */
function valueOf(json: JsonValue): unknown {
  if (Array.isArray(json)) return json.map(valueOf);
  if (json !== null && typeof json === 'object') {
    const bytes = json['$bytes'];
    if (typeof bytes === 'string' && Object.keys(json).length === 1) {
      return new Uint8Array(Buffer.from(bytes, 'base64'));
    }
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, valueOf(v)]));
  }
  return json;
}
