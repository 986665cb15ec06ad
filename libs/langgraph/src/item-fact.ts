import { createHash } from 'node:crypto';
import type { Item } from '@langchain/langgraph';
import { timestampDate, type ResponseOf, type Rpcs } from '@engram/client';

/** A fact as Engram answers it (facts.list, facts.get). */
export type Fact = ResponseOf<typeof Rpcs.factsList>['facts'][number];

/** A JSON object as a fact's metadata holds it. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** The key of a fact's metadata under which EngramStore keeps an item: other metadata is never read. */
export const ITEM_ROOT = 'langgraph';

/** Namespace labels are joined by a character LangGraph forbids in them, so a joined path is unambiguous. */
const SEPARATOR = ':';

/** What a fact's metadata holds of a LangGraph item, under ITEM_ROOT. */
export interface ItemRecord {
  readonly namespace: string[];
  /** The namespace joined: an exact match by JSON containment. */
  readonly path: string;
  /** Every leading part of the namespace joined: a prefix match by JSON containment. */
  readonly prefixes: string[];
  readonly key: string;
  readonly value: JsonObject;
  /** When the item was first put (ISO); absent on its first version, whose own time it is. */
  readonly createdAt?: string;
}

/** The namespace as one string; labels hold no separator (checkNamespace). */
export function namespacePath(namespace: readonly string[]): string {
  return namespace.join(SEPARATOR);
}

/** The metadata of an item's fact: the namespace, key and value, and the item's first time once it has one. */
export function itemMetadata(
  namespace: readonly string[],
  key: string,
  value: Record<string, unknown>,
  createdAt?: Date,
): JsonObject {
  const record: ItemRecord = {
    namespace: [...namespace],
    path: namespacePath(namespace),
    prefixes: namespace.map((_, i) => namespacePath(namespace.slice(0, i + 1))),
    key,
    value: jsonOf(value),
    ...(createdAt && { createdAt: createdAt.toISOString() }),
  };
  return { [ITEM_ROOT]: record as unknown as JsonObject };
}

/** A value as JSON keeps it (no undefined, no functions, dates as text): as Engram gives it back. */
export function jsonOf(value: Record<string, unknown>): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** Metadata contained by exactly the facts of one item (every version, every life). */
export function itemSelector(namespace: readonly string[], key: string): JsonObject {
  return { [ITEM_ROOT]: { path: namespacePath(namespace), key } };
}

/** Metadata contained by the facts of every item under `prefix` whose value contains `value`. */
export function prefixSelector(prefix: readonly string[], value: JsonObject = {}): JsonObject {
  return {
    [ITEM_ROOT]: {
      ...(prefix.length > 0 && { prefixes: [namespacePath(prefix)] }),
      ...(Object.keys(value).length > 0 && { value }),
    },
  };
}

/**
 * The idempotency key of an item's save: one per item and life, so a save sent twice adds one
 * fact, and an item put again after it was deleted starts a new fact after the forgotten one.
 * Hashed: a namespace and key may be longer than the 200 characters a key may have.
 */
export function itemSaveKey(namespace: readonly string[], key: string, afterFactId?: string): string {
  const item = createHash('sha256')
    .update(JSON.stringify([namespace, key]))
    .digest('base64url');
  return `${ITEM_ROOT}:${item}${afterFactId ? `:after:${afterFactId}` : ''}`;
}

/** The item a fact holds, or null for a fact EngramStore did not write. */
export function itemOf(fact: Fact): Item | null {
  const record = (fact.metadata as Record<string, unknown> | undefined)?.[ITEM_ROOT] as
    Partial<ItemRecord> | undefined;
  if (!record || !Array.isArray(record.namespace) || typeof record.key !== 'string') return null;
  const updatedAt = fact.createdAt ? timestampDate(fact.createdAt) : new Date(0);
  return {
    namespace: record.namespace,
    key: record.key,
    value: record.value ?? {},
    createdAt: record.createdAt ? new Date(record.createdAt) : updatedAt,
    updatedAt,
  };
}

/** A fact in force: neither closed nor expired at `now`. */
export function inForce(fact: Fact, now = new Date()): boolean {
  return !fact.validTo && !(fact.expiresAt && timestampDate(fact.expiresAt) <= now);
}
