import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FACT_CATEGORIES, TurnEventSchema } from '@engram/contracts';
import { entityAgent, MEM0_CATEGORIES_KEY } from '@engram/memory-core';
import {
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
import { EMPTY_PLAN, mapRecords, type ImportPlan } from './import-plan';

/**
 * mem0's memories in Engram, as the mem0-compatible API maps them: a memory is a fact of its
 * user (else its agent), its run a conversation (session key = run_id), its categories the
 * fact's category when one is Engram's (the others kept in metadata), its metadata the fact's,
 * created_at when the fact began to hold.
 */

const ENGRAM_CATEGORIES: ReadonlySet<string> = new Set(FACT_CATEGORIES);
const MESSAGE_ROLES = new Set(['user', 'assistant']);

/**
 * The memories a mem0 file lists: get_all's `{"results": [...]}` (open source), the platform's
 * list (a bare array, or paginated `{count, next, previous, results}`), or a platform export
 * (get_memory_export's `{"data": ...}`, or its data alone) made with a schema listing
 * `memories` (or `results`).
 */
export function mem0Memories(json: unknown): unknown[] {
  const listed = memoryList(json);
  if (listed.length > 0 && !listed.some((m) => isRecord(m) && typeof m['memory'] === 'string'))
    throw new NotTheFormat('its list holds no memory (an object with a "memory" text)');
  return listed;
}

function memoryList(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (!isRecord(json)) throw new NotTheFormat('neither a list of memories nor an object holding one');
  for (const holder of [json, json['data']]) {
    if (Array.isArray(holder)) return holder;
    if (!isRecord(holder)) continue;
    if (Array.isArray(holder['results'])) return holder['results'];
    if (Array.isArray(holder['memories'])) return holder['memories'];
  }
  throw new NotTheFormat(
    'no "results" list (get_all), bare list of memories, or export data holding "memories"',
  );
}

/** mem0's categories as Engram's: the first that is one of Engram's, and the others to keep in metadata. */
export function splitCategories(categories: readonly string[]): { category?: string; others: string[] } {
  const category = categories.map((c) => c.trim().toLowerCase()).find((c) => ENGRAM_CATEGORIES.has(c));
  return {
    category,
    others: categories.filter((c) => c.trim().toLowerCase() !== category),
  };
}

function categoriesOf(memory: JsonRecord): string[] {
  const listed = listOf(memory, 'categories') ?? [];
  if (!listed.every((c): c is string => typeof c === 'string'))
    throw new RecordRefused('categories is not a list of names');
  return listed;
}

/** The memory's owner: --agent, else its user, else its agent, as the mem0 API maps entities. */
function ownerOf(memory: JsonRecord, agent: string | undefined): string {
  if (agent) return agent;
  const owner = textOf(memory, 'user_id') ?? textOf(memory, 'agent_id');
  if (!owner) throw new RecordRefused('names no user_id or agent_id (give --agent)');
  return entityAgent(owner);
}

/** One mem0 memory as a fact, and the turn of its run (what mem0's add publishes) when it has one. */
export function mem0MemoryPlan(memory: unknown, record: string, agent?: string): ImportPlan {
  if (!isRecord(memory)) throw new RecordRefused('is not an object');
  const id = textOf(memory, 'id');
  if (!id) throw new RecordRefused('has no id, so importing it again could not find it');
  const content = textOf(memory, 'memory');
  if (!content) throw new RecordRefused('has no memory text');
  const owner = ownerOf(memory, agent);
  const { category, others } = splitCategories(categoriesOf(memory));
  const metadata = {
    ...objectOf(memory, 'metadata'),
    ...(others.length > 0 && { [MEM0_CATEGORIES_KEY]: others }),
  };
  const validFrom = timeOf(memory, 'created_at') ?? timeOf(memory, 'createdAt');
  const expires = timeOf(memory, 'expiration_date');
  const runId = textOf(memory, 'run_id');
  const turnId = `mem0-${id}`;
  const fact = {
    record,
    agent: owner,
    save: {
      key: `mem0:${id}`,
      content,
      category: category ?? '',
      ...(Object.keys(metadata).length > 0 && { metadata }),
      ...(validFrom && { validFrom: timestampFromDate(validFrom) }),
      // An expired memory is kept as history, closed when it expired.
      ...(expires && expires <= new Date() && { validTo: timestampFromDate(expires) }),
    },
    ...(runId && { sources: { turns: [{ sessionKey: runId, turnId }], required: true } }),
  };
  if (!runId) return { ...EMPTY_PLAN, facts: [fact] };
  const role = textOf(memory, 'role');
  const turn = create(TurnEventSchema, {
    turnId,
    sessionKey: runId,
    channel: 'mem0',
    // The memory is the fact below: no worker extracts facts from its words again.
    skipFactExtraction: true,
    messages: [
      {
        role: role && MESSAGE_ROLES.has(role) ? role : 'user',
        content,
        author: role === 'assistant' ? '' : (textOf(memory, 'user_id') ?? ''),
        ...(validFrom && { createdAt: timestampFromDate(validFrom) }),
      },
    ],
  });
  return { ...EMPTY_PLAN, turns: [{ record, agent: owner, turn }], facts: [fact] };
}

/** A mem0 file as an import plan: each memory on its own, refused by name when it cannot be taken. */
export function mem0Plan(json: unknown, options: { agent?: string } = {}): ImportPlan {
  return mapRecords(
    mem0Memories(json),
    (memory, i) => recordName(`memory ${i + 1}`, isRecord(memory) ? memory['id'] : undefined),
    (memory, record) => mem0MemoryPlan(memory, record, options.agent),
  );
}
