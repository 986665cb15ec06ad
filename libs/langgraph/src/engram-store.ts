import { isDeepStrictEqual } from 'node:util';
import type { BaseMessage } from '@langchain/core/messages';
import {
  BaseStore,
  getStore,
  type GetOperation,
  type Item,
  type LangGraphRunnableConfig,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from '@langchain/langgraph';
import {
  EngramNotFoundError,
  type Rpcs,
  type EngramClient,
  type PublishedTurn,
  type RequestOf,
} from '@engram/client';
import {
  inForce,
  itemMetadata,
  itemOf,
  itemSaveKey,
  itemSelector,
  jsonOf,
  prefixSelector,
  type Fact,
  type JsonObject,
} from './item-fact';
import { matches, splitFilter } from './item-filter';
import { itemText } from './item-text';
import { checkNamespace, fixedPrefix, listedNamespaces } from './namespaces';
import { promptMessagesOf, turnMessagesOf } from './turn-messages';

export interface EngramStoreOptions {
  /** Engram as the runtime reaches it; its tenant is the store's. */
  readonly client: EngramClient;
  /** The Engram agent whose memory holds every item (default: the client's agent). */
  readonly agent?: string;
  /** An item's searchable text: the texts at these paths of its value (default: every string in it). */
  readonly index?: { readonly fields?: readonly string[] };
}

/** An item found by a search, with Engram's relevance when a query ranked it. */
export type SearchItem = Item & { score?: number };

/** Most facts one facts.list answers. */
const LIST_PAGE = 1000;
/** Most hits one memory search answers. */
const MAX_HITS = 100;

const isPut = (op: Operation): op is PutOperation => 'value' in op;
const isSearch = (op: Operation): op is SearchOperation => 'namespacePrefix' in op;
const isGet = (op: Operation): op is GetOperation => 'key' in op && 'namespace' in op;

/**
 * LangGraph's long-term memory store over Engram: each item (namespace, key, value) is a fact
 * of the store's agent whose metadata holds the namespace, the key and the value, and whose
 * content is the value's searchable text. Putting an item again writes the fact's next version,
 * deleting it forgets the fact; a search with a query is Engram's memory search over those
 * facts, without one a listing, newest first. Every item is in the agent's memory, so Engram's
 * prompt for the agent (buildPrompt) holds them as sticky facts.
 */
export class EngramStore extends BaseStore {
  readonly client: EngramClient;
  readonly agent: string;
  private readonly fields: readonly string[] | undefined;

  constructor(options: EngramStoreOptions) {
    super();
    const agent = options.agent ?? options.client.agent;
    if (!agent)
      throw new Error('EngramStore needs an agent: new EngramStore({ client, agent }), or a client with one');
    this.client = options.client;
    this.agent = agent;
    this.fields = options.index?.fields;
  }

  /** The EngramStore a graph was compiled (or invoked) with, from a node's or tool's config. */
  static of(config?: LangGraphRunnableConfig): EngramStore {
    const store = getStore(config);
    // Inside a run LangGraph hands out an AsyncBatchedStore whose `store` is the graph's own.
    const own = store && 'lg_name' in store ? (store as unknown as { store?: unknown }).store : store;
    if (own instanceof EngramStore) return own;
    throw new Error(
      "this graph's store is not an EngramStore: compile the graph with { store: new EngramStore({ client }) }",
    );
  }

  /** Runs the reads first, then the puts, the last put of an item winning: as InMemoryStore does. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = await Promise.all(operations.map((op) => this.read(op)));
    const puts = new Map(operations.filter(isPut).map((op) => [JSON.stringify([op.namespace, op.key]), op]));
    for (const put of puts.values()) await this.write(put);
    return results as OperationResults<Op>;
  }

  /**
   * Engram's prompt for the thread's next model call (identity, sticky facts, relevant memory,
   * the recent conversation …) as LangChain messages, none for an agent Engram does not know
   * yet: put the user's message after them.
   */
  async buildPrompt(
    config: LangGraphRunnableConfig,
    currentMessage: string | BaseMessage,
    options: { readonly model?: string; readonly budgetTokens?: number } = {},
  ): Promise<BaseMessage[]> {
    const context = await this.client
      .buildContext({
        agent: this.agent,
        sessionKey: threadOf(config),
        currentMessage: typeof currentMessage === 'string' ? currentMessage : currentMessage.text,
        ...options,
      })
      // An agent with no profile and nothing said yet is unknown to Engram: nothing to remember.
      .catch(unless(EngramNotFoundError, { blocks: [] }));
    return promptMessagesOf(context.blocks);
  }

  /**
   * Publishes a turn of the thread (its conversation in Engram) to memory: the user's message,
   * the model's answer, its tool calls. A turn is stored once however often it is published; its
   * id is the first message's (LangGraph's messages reducer gives each message one) unless given.
   */
  async publishTurn(
    config: LangGraphRunnableConfig,
    messages: readonly BaseMessage[],
    options: { readonly turnId?: string } = {},
  ): Promise<PublishedTurn> {
    const turnId = options.turnId ?? messages[0]?.id;
    if (!turnId) {
      throw new Error(
        "publishTurn needs a turn id: the first message's id (MessagesAnnotation gives every message one) or { turnId }",
      );
    }
    return this.client.publishTurn({
      agent: this.agent,
      turnId,
      sessionKey: threadOf(config),
      messages: turnMessagesOf(messages),
    });
  }

  private read(op: Operation): Promise<Item | SearchItem[] | string[][] | null> {
    if (isPut(op)) return Promise.resolve(null);
    if (isSearch(op)) return this.findItems(op);
    if (isGet(op)) return this.readItem(op);
    return this.namespaces(op);
  }

  private async readItem({ namespace, key }: GetOperation): Promise<Item | null> {
    checkNamespace(namespace, { allowEmpty: true });
    const { facts } = await this.listFacts({ metadata: itemSelector(namespace, key), limit: 1 });
    return facts[0] ? itemOf(facts[0]) : null;
  }

  /**
   * A query ranks the items by Engram's memory search (its best MAX_HITS at most); without one
   * they are listed newest first. Comparisons Engram cannot answer are checked here, on every
   * item the search or listing reaches, before the page is cut.
   */
  private async findItems(op: SearchOperation): Promise<SearchItem[]> {
    checkNamespace(op.namespacePrefix, { allowEmpty: true });
    const { contained, compared } = splitFilter(op.filter);
    const selector = prefixSelector(op.namespacePrefix, contained);
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    if (limit <= 0) return [];
    const page = (items: SearchItem[]) =>
      items.filter((item) => matches(item.value, compared)).slice(offset, offset + limit);
    if (op.query) {
      return page(await this.relevant(op.query, selector, compared.length > 0 ? MAX_HITS : offset + limit));
    }
    if (compared.length > 0) return page(itemsOf(await this.allFacts(selector)));
    return itemsOf((await this.listFacts({ metadata: selector, limit, offset })).facts);
  }

  /** The items Engram's memory search finds for a query, best first, with its score. */
  private async relevant(query: string, selector: JsonObject, topK: number): Promise<SearchItem[]> {
    const { hits } = await this.client
      .search({
        query,
        topK: Math.min(topK, MAX_HITS),
        expand: false,
        filters: { agent: this.agent, kinds: ['fact'], metadata: selector },
      })
      // A tenant that never kept anything has no memory to search: no item matches.
      .catch(unless(EngramNotFoundError, { hits: [] }));
    if (hits.length === 0) return [];
    // A hit carries the fact's text, not its metadata: the facts are read for their items.
    const { facts } = await this.listFacts({ ids: hits.map((hit) => hit.id), limit: hits.length });
    const byId = new Map(facts.map((fact) => [fact.id, itemOf(fact)]));
    return hits.flatMap((hit) => {
      const item = byId.get(hit.id);
      return item ? [{ ...item, score: hit.score }] : [];
    });
  }

  private async namespaces(op: ListNamespacesOperation): Promise<string[][]> {
    const facts = await this.allFacts(prefixSelector(fixedPrefix(op)));
    return listedNamespaces(
      itemsOf(facts).map((item) => item.namespace),
      op,
    );
  }

  /** Put: the item's fact updated (its next version), saved (a new item) or forgotten (value null). */
  private async write({ namespace, key, value, index }: PutOperation): Promise<void> {
    checkNamespace(namespace);
    const newest = await this.newestVersion(namespace, key);
    const current = newest && inForce(newest) ? newest : undefined;
    if (value === null) {
      if (current)
        await this.client.forget({ factId: current.id, reason: 'deleted from the LangGraph store' });
      return;
    }
    const content = itemText(value, index ?? this.fields);
    if (current) return this.update(current, content, value);
    await this.save(namespace, key, value, content, newest?.id);
  }

  /** The newest version of any of the item's lives: in force, it is the item; else its last life's end. */
  private async newestVersion(namespace: readonly string[], key: string): Promise<Fact | undefined> {
    const { facts } = await this.listFacts({
      metadata: itemSelector(namespace, key),
      includeClosed: true,
      limit: 1,
    });
    return facts[0];
  }

  /** A new item, or a new life of a deleted one (after its last version). */
  private async save(
    namespace: readonly string[],
    key: string,
    value: Record<string, unknown>,
    content: string,
    afterFactId: string | undefined,
  ): Promise<void> {
    const saved = await this.client.save({
      agent: this.agent,
      content,
      metadata: itemMetadata(namespace, key, value),
      key: itemSaveKey(namespace, key, afterFactId),
    });
    if (!saved.deduplicated) return;
    // Another put of this item saved it first: this one's value is its next version.
    const { current } = await this.client.getFact({ factId: saved.factId });
    if (current) await this.update(current, content, value);
  }

  /** The item's next version, unless it already holds this value and text (a put sent again). */
  private async update(fact: Fact, content: string, value: Record<string, unknown>): Promise<void> {
    const item = itemOf(fact)!;
    if (fact.content === content && isDeepStrictEqual(item.value, jsonOf(value))) return;
    await this.client.updateFact({
      factId: fact.id,
      content,
      metadata: itemMetadata(item.namespace, item.key, value, item.createdAt),
      reason: 'put again in the LangGraph store',
    });
  }

  /** Every fact in force of the store's agent whose metadata contains `metadata`, a page at a time. */
  private async allFacts(metadata: JsonObject): Promise<Fact[]> {
    const facts: Fact[] = [];
    for (;;) {
      const page = await this.listFacts({ metadata, limit: LIST_PAGE, offset: facts.length });
      facts.push(...page.facts);
      if (page.facts.length === 0 || facts.length >= Number(page.total)) return facts;
    }
  }

  private listFacts(request: RequestOf<typeof Rpcs.factsList>) {
    return this.client.listFacts({ agents: [this.agent], ...request });
  }
}

/** A rejection handler: `answer` for an error of class `kind`, any other error thrown on. */
function unless<T>(kind: abstract new (...args: never[]) => Error, answer: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof kind) return answer;
    throw error;
  };
}

/** The items EngramStore wrote among facts, in their order. */
function itemsOf(facts: readonly Fact[]): SearchItem[] {
  return facts.map(itemOf).filter((item) => item !== null);
}

/** The thread a node runs in: its conversation in Engram (the session key). */
function threadOf(config: LangGraphRunnableConfig): string {
  const thread = (config.configurable as { thread_id?: unknown } | undefined)?.thread_id;
  if (typeof thread === 'string' && thread !== '') return thread;
  throw new Error(
    'Engram keeps each LangGraph thread as a conversation: run the graph with { configurable: { thread_id } }',
  );
}
