import { createHash } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TurnEventSchema } from '@engram/contracts';
import { entityAgent } from '@engram/memory-core';
import {
  definedFields,
  isRecord,
  listOf,
  NotTheFormat,
  objectOf,
  recordName,
  RecordRefused,
  textOf,
  timeOf,
  type JsonRecord,
} from './foreign-json';
import { EMPTY_PLAN, mapRecords, mergePlans, type ImportPlan } from './import-plan';

/**
 * Zep / Graphiti memory in Engram. Zep has no export file; the file is the JSON its API answers,
 * gathered in one object (or one of its lists alone):
 *
 *   { "user_id": "ada",                          whose memory (else --agent, else each record's group_id)
 *     "episodes": [Episode],                     graph.episode.get_by_user_id(...).episodes, or Graphiti EpisodicNodes
 *     "thread_id": "t-1", "messages": [Message], thread.get / memory.get_session_messages (session_id too)
 *     "edges": [EntityEdge],                     graph.edge.get_by_user_id, or Graphiti EntityEdges
 *     "facts": [EntityEdge] }                    memory.get's facts
 *
 * Episodes and messages become the transcript (a turn each, the turn id from its uuid, a
 * conversation per thread); edges become facts that held from valid_at (else created_at) and,
 * with invalid_at (else expired_at), closed then — linked to the episodes they came from.
 */

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);
/** Zep's role types that Engram names otherwise. */
const ROLE_ALIASES: Readonly<Record<string, string>> = { function: 'tool', norole: 'user' };

export interface ZepFile {
  readonly userId?: string;
  readonly threadId?: string;
  readonly episodes: readonly unknown[];
  readonly messages: readonly unknown[];
  readonly edges: readonly unknown[];
  readonly facts: readonly unknown[];
}

/** The lists of a Zep file (or of a bare list: items with a `fact` are edges, the others episodes). */
export function zepFile(json: unknown): ZepFile {
  if (Array.isArray(json)) {
    const isEdge = (item: unknown) => isRecord(item) && 'fact' in item;
    return { episodes: json.filter((i) => !isEdge(i)), messages: [], edges: json.filter(isEdge), facts: [] };
  }
  if (!isRecord(json)) throw new NotTheFormat('neither an object nor a list');
  const lists = ['episodes', 'messages', 'edges', 'facts'].filter((k) => Array.isArray(json[k]));
  if (lists.length === 0)
    throw new NotTheFormat('no "episodes", "messages", "edges" or "facts" list (the JSON Zep answers)');
  try {
    return {
      userId: textOf(json, 'user_id'),
      threadId: textOf(json, 'thread_id') ?? textOf(json, 'session_id'),
      episodes: listOf(json, 'episodes') ?? [],
      messages: listOf(json, 'messages') ?? [],
      edges: listOf(json, 'edges') ?? [],
      facts: listOf(json, 'facts') ?? [],
    };
  } catch (error) {
    throw new NotTheFormat((error as Error).message);
  }
}

/** Whose memory a record is: --agent, else the file's user, else the record's Graphiti group. */
function ownerOf(record: JsonRecord, file: ZepFile, agent: string | undefined): string {
  if (agent) return agent;
  const owner = file.userId ?? textOf(record, 'group_id');
  if (!owner) throw new RecordRefused('names no user (give --agent, or user_id in the file)');
  return entityAgent(owner);
}

/** A record's uuid, else a digest of what it is (stable: the same record, the same id). */
function uuidOf(record: JsonRecord): string {
  return (
    textOf(record, 'uuid') ?? createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 32)
  );
}

/**
 * A Zep role as Engram's, and who spoke: Zep v2 names the speaker in `role` and the kind in
 * `role_type`; v3 has the kind in `role` and the speaker in `name`. Text added to the graph has
 * neither: the user's, as information the application gave.
 */
export function zepRole(record: JsonRecord): { role: string; author: string } {
  const role = textOf(record, 'role');
  const kind =
    textOf(record, 'role_type') ?? (role && (ROLES.has(role) || role in ROLE_ALIASES) ? role : undefined);
  const author = textOf(record, 'name') ?? (role !== kind ? role : undefined) ?? '';
  const mapped = kind ? (ROLE_ALIASES[kind] ?? kind) : 'user';
  return { role: ROLES.has(mapped) ? mapped : 'user', author };
}

/**
 * The conversation an episode or message belongs to: its thread (session), else — for the
 * file's messages — the file's thread; episodes of no thread (data added to the graph) go to "zep".
 */
export function zepSessionKey(record: JsonRecord, thread: string | undefined): string {
  return textOf(record, 'thread_id') ?? textOf(record, 'session_id') ?? thread ?? 'zep';
}

/** An episode or a message as a turn of one message. */
function episodePlan(
  episode: unknown,
  record: string,
  file: ZepFile,
  thread: string | undefined,
  agent?: string,
): ImportPlan {
  if (!isRecord(episode)) throw new RecordRefused('is not an object');
  const content = textOf(episode, 'content');
  if (!content) throw new RecordRefused('has no content');
  const at = timeOf(episode, 'valid_at') ?? timeOf(episode, 'created_at');
  const source = definedFields({
    source: textOf(episode, 'source'),
    source_description: textOf(episode, 'source_description'),
  });
  const metadata = {
    ...objectOf(episode, 'metadata'),
    ...(Object.keys(source).length > 0 && { zep: source }),
  };
  const turn = create(TurnEventSchema, {
    turnId: `zep-${uuidOf(episode)}`,
    sessionKey: zepSessionKey(episode, thread),
    channel: 'zep',
    messages: [
      {
        ...zepRole(episode),
        content,
        ...(Object.keys(metadata).length > 0 && { metadata }),
        ...(at && { createdAt: timestampFromDate(at) }),
      },
    ],
  });
  return { ...EMPTY_PLAN, turns: [{ record, agent: ownerOf(episode, file, agent), turn }] };
}

/** An entity edge as a fact with its valid time, resting on the file's episodes it came from. */
function edgePlan(
  edge: unknown,
  record: string,
  file: ZepFile,
  episodeSessions: ReadonlyMap<string, string>,
  agent?: string,
): ImportPlan {
  if (!isRecord(edge)) throw new RecordRefused('is not an object');
  const content = textOf(edge, 'fact');
  if (!content) throw new RecordRefused('has no fact');
  const uuid = uuidOf(edge);
  const validFrom = timeOf(edge, 'valid_at') ?? timeOf(edge, 'created_at');
  const validTo = timeOf(edge, 'invalid_at') ?? timeOf(edge, 'expired_at');
  const zep = definedFields({
    uuid,
    name: textOf(edge, 'name'),
    source_node_uuid: textOf(edge, 'source_node_uuid'),
    target_node_uuid: textOf(edge, 'target_node_uuid'),
    attributes: objectOf(edge, 'attributes'),
  });
  const turns = (listOf(edge, 'episodes') ?? []).flatMap((id) => {
    const sessionKey = typeof id === 'string' ? episodeSessions.get(id) : undefined;
    return sessionKey ? [{ sessionKey, turnId: `zep-${id as string}` }] : [];
  });
  const fact = {
    record,
    agent: ownerOf(edge, file, agent),
    save: {
      key: `zep:${uuid}`,
      content,
      category: 'fact',
      metadata: { zep },
      ...(validFrom && { validFrom: timestampFromDate(validFrom) }),
      ...(validTo && { validTo: timestampFromDate(validTo) }),
    },
    ...(turns.length > 0 && { sources: { turns, required: false } }),
  };
  return { ...EMPTY_PLAN, facts: [fact] };
}

/** The conversation of each episode and message of the file, by uuid: where a fact's sources are. */
function sessionsByUuid(file: ZepFile): Map<string, string> {
  const sessions = new Map<string, string>();
  const note = (items: readonly unknown[], thread: string | undefined) => {
    for (const item of items)
      if (isRecord(item) && typeof item['uuid'] === 'string')
        sessions.set(item['uuid'], zepSessionKey(item, thread));
  };
  note(file.episodes, undefined);
  note(file.messages, file.threadId);
  return sessions;
}

const nameOf = (list: string) => (item: unknown, i: number) =>
  recordName(`${list}[${i}]`, isRecord(item) ? item['uuid'] : undefined);

/** A Zep file as an import plan. */
export function zepPlan(json: unknown, options: { agent?: string } = {}): ImportPlan {
  const file = zepFile(json);
  const sessions = sessionsByUuid(file);
  return mergePlans([
    mapRecords(file.episodes, nameOf('episodes'), (e, record) =>
      episodePlan(e, record, file, undefined, options.agent),
    ),
    mapRecords(file.messages, nameOf('messages'), (m, record) =>
      episodePlan(m, record, file, file.threadId, options.agent),
    ),
    mapRecords(file.edges, nameOf('edges'), (e, record) =>
      edgePlan(e, record, file, sessions, options.agent),
    ),
    mapRecords(file.facts, nameOf('facts'), (f, record) =>
      edgePlan(f, record, file, sessions, options.agent),
    ),
  ]);
}
