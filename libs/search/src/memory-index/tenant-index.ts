import { parseItemRef } from '@engram/contracts';
import { DEFAULT_TEXT_SEARCH } from '@engram/memory-core';
import type { ItemKind } from '../ranking/candidate';
import { Dictionary, Float64Column, Int32Column, SlotList, Uint8Column } from './columns';
import type {
  AccessDoc,
  ConversationDoc,
  FactDoc,
  MessageDoc,
  SummaryDoc,
  SummarySource,
  TenantSnapshot,
  VectorDoc,
} from './index-docs';
import { VectorSet } from './vector-set';

/**
 * One kind of item (messages, summaries or facts) as columns by slot: a slot is given once
 * per id and kept, so posting lists and conversation orders hold slots.
 */
export class ItemTable {
  private readonly slots = new Map<string, number>();
  readonly ids = new Float64Column();
  /** The ids as text, by slot: the strings the id map holds anyway, so a search makes none. */
  private readonly idTexts: string[] = [];
  readonly conversation = new Int32Column(-1);
  readonly agent = new Int32Column(-1);
  /** When it was said (message), the latest turn it covers (summary), since when it holds (fact). */
  readonly time = new Float64Column();
  readonly length = new Int32Column();
  readonly accessCount = new Int32Column();
  readonly lastAccess = new Float64Column();
  readonly postings = new Map<string, SlotList>();
  private readonly lexemeCount = new Int32Column();
  readonly vectors = new Map<string, VectorSet>();
  /** Slots by agent and by conversation (ascending): what a scoped search reaches without reading the rest. */
  readonly byAgent = new Map<number, SlotList>();
  readonly byConversation = new Map<number, SlotList>();

  get size(): number {
    return this.slots.size;
  }

  slot(id: string): number | undefined {
    return this.slots.get(id);
  }

  id(slot: number): string {
    return this.idTexts[slot]!;
  }

  /**
   * The slot of `id` with its agent and conversation, made when new (`added` says so) and then
   * filed under both (neither changes once an item is stored).
   */
  place(id: string, agent: number, conversation: number): { slot: number; added: boolean } {
    const known = this.slots.get(id);
    const slot = known ?? this.slots.size;
    if (known === undefined) {
      this.slots.set(id, slot);
      this.ids.set(slot, Number(id));
      this.idTexts.push(id);
      this.file(slot, agent, conversation);
    }
    this.conversation.set(slot, conversation);
    this.agent.set(slot, agent);
    return { slot, added: known === undefined };
  }

  /** Whether the item `id` is held with its words (posted lexemes). */
  holdsWords(id: string): boolean {
    const slot = this.slots.get(id);
    return slot !== undefined && this.lexemeCount.get(slot) > 0;
  }

  /** Files a new slot under its agent and conversation. */
  private file(slot: number, agent: number, conversation: number): void {
    for (const [map, key] of [
      [this.byAgent, agent],
      [this.byConversation, conversation],
    ] as const) {
      if (key < 0) continue;
      let list = map.get(key);
      if (!list) map.set(key, (list = new SlotList()));
      list.insert(slot);
    }
  }

  /**
   * Posts the item's lexemes. An item's words never change once it has some (the transcript is
   * immutable; only an empty tool call may get synthesised content once), so lexemes are posted once.
   */
  post(slot: number, lexemes: readonly string[]): void {
    if (this.lexemeCount.get(slot) > 0 || lexemes.length === 0) return;
    this.lexemeCount.set(slot, lexemes.length);
    for (const lexeme of lexemes) {
      let list = this.postings.get(lexeme);
      if (!list) this.postings.set(lexeme, (list = new SlotList()));
      list.insert(slot);
    }
  }

  /** Gives back the room growth left in every column, list and vector set: one step per yield. */
  *compacting(): Generator<void> {
    const n = this.slots.size;
    for (const column of [
      this.ids,
      this.conversation,
      this.agent,
      this.time,
      this.length,
      this.accessCount,
      this.lastAccess,
      this.lexemeCount,
    ])
      yield column.compact(n);
    for (const list of this.postings.values()) yield list.compact();
    for (const list of this.byAgent.values()) yield list.compact();
    for (const list of this.byConversation.values()) yield list.compact();
    for (const set of this.vectors.values()) yield set.compact();
  }

  /** Room for `rows` vectors per model (a load knows how many items come): no set is copied as it grows. */
  reserve(rows: number): void {
    this.expected = rows;
  }

  private expected = 16;

  putVector(slot: number, model: string, vector: Float32Array): void {
    let set = this.vectors.get(model);
    if (!set) this.vectors.set(model, (set = new VectorSet(vector.length, this.expected)));
    set.put(slot, vector);
  }

  get bytes(): number {
    let bytes =
      this.ids.bytes +
      this.conversation.bytes +
      this.agent.bytes +
      this.time.bytes +
      this.length.bytes +
      this.accessCount.bytes +
      this.lastAccess.bytes +
      this.lexemeCount.bytes +
      // The id map (~80 bytes an entry in V8) and the ids' texts (a pointer each).
      this.slots.size * 88;
    for (const [lexeme, list] of this.postings) bytes += list.bytes + lexeme.length * 2 + 80;
    for (const list of this.byAgent.values()) bytes += list.bytes + 80;
    for (const list of this.byConversation.values()) bytes += list.bytes + 80;
    for (const set of this.vectors.values()) bytes += set.bytes;
    return bytes;
  }
}

/**
 * A tenant's memory in the retrieval process: what a search reads before it reads the items
 * themselves (see index-source.ts), derived from Postgres and rebuildable at any time. Upserts
 * are idempotent — applying a row again, or an older event after a newer load, changes nothing
 * that the row does not say — so events and loads may overlap.
 */
export class TenantIndex {
  /** Changes applied so far, and `bytes` as measured at one of them. */
  private version = 0;
  private measured?: { version: number; bytes: number };
  readonly messages = new ItemTable();
  readonly summaries = new ItemTable();
  readonly facts = new ItemTable();
  readonly conversations = new Dictionary();
  readonly agents = new Dictionary();
  readonly authors = new Dictionary();
  readonly roles = new Dictionary();
  /** Channel of each conversation (by its dictionary number), -1 for none. */
  readonly channels = new Int32Column(-1);
  readonly channelNames = new Dictionary();
  // Messages
  readonly role = new Int32Column(-1);
  readonly author = new Int32Column(-1);
  readonly streamSeq = new Float64Column();
  readonly position = new Int32Column();
  readonly asks = new Uint8Column();
  /** Each conversation's messages in transcript order (created_at, stream_seq, position, id). */
  readonly turns = new Map<number, SlotList>();
  private tokens = 0;
  // Summaries
  readonly earliest = new Float64Column();
  readonly summarySources = new Map<number, readonly SummarySource[]>();
  // Facts
  readonly validTo = new Float64Column();
  readonly expiresAt = new Float64Column();
  readonly importance = new Int32Column();
  readonly factSources = new Map<number, readonly string[]>();
  /** Text-search configurations of the items held, and the default every tenant's set holds. */
  private readonly languageSet = new Set<string>([DEFAULT_TEXT_SEARCH]);
  private languageList: readonly string[] = [DEFAULT_TEXT_SEARCH];

  constructor(readonly tenantId: string) {}

  /**
   * The configurations a query is stemmed with: the tenant's `languages` as the store keeps them
   * (the default, and each one ingest stamped an item with), in name order.
   */
  get languages(): readonly string[] {
    return this.languageList;
  }

  private heardLanguage(language: string): void {
    if (this.languageSet.has(language)) return;
    this.languageSet.add(language);
    this.languageList = [...this.languageSet].sort();
  }

  /** Applies rows read from the store (a load, or the rows an event named). */
  apply(rows: Partial<TenantSnapshot>): void {
    this.version += 1;
    rows.conversations?.forEach((c) => this.putConversation(c));
    rows.messages?.forEach((m) => this.putMessage(m));
    rows.summaries?.forEach((s) => this.putSummary(s));
    rows.facts?.forEach((f) => this.putFact(f));
    rows.vectors?.forEach((v) => this.putVector(v));
    rows.access?.forEach((a) => this.putAccess(a));
  }

  /** A search returned these refs ("message:12") at `atUs`: as the store's access counts will, each counts once more. */
  accessed(refs: readonly string[], atUs: number): void {
    for (const ref of refs) {
      const item = parseItemRef(ref);
      if (!item) continue;
      const t = this.table(item.kind);
      const slot = t.slot(item.id);
      if (slot === undefined) continue;
      t.accessCount.set(slot, t.accessCount.get(slot) + 1);
      const last = t.lastAccess.get(slot);
      t.lastAccess.set(slot, Number.isNaN(last) ? atUs : Math.max(last, atUs));
    }
  }

  table(kind: ItemKind): ItemTable {
    return kind === 'message' ? this.messages : kind === 'summary' ? this.summaries : this.facts;
  }

  /** Messages held: the "documents" of idf. */
  get documents(): number {
    return this.messages.size;
  }

  /** Average message length in tokens (20 with none, as the store's plan says). */
  get averageLength(): number {
    return this.messages.size > 0 ? this.tokens / this.messages.size : 20;
  }

  /** How many messages of conversation `conversationId` are held. */
  conversationSize(conversationId: string): number {
    return this.turns.get(this.conversations.find(conversationId))?.length ?? 0;
  }

  /** Items and vectors held, to compare with the store's counts. */
  get counts(): { messages: number; summaries: number; facts: number; vectors: number } {
    let vectors = 0;
    for (const t of [this.messages, this.summaries, this.facts])
      for (const set of t.vectors.values()) vectors += set.rows;
    return { messages: this.messages.size, summaries: this.summaries.size, facts: this.facts.size, vectors };
  }

  /** Gives back the room growth left (after a load): one step per yield, so a caller can let other work in. */
  *compacting(): Generator<void> {
    yield* this.messages.compacting();
    yield* this.summaries.compacting();
    yield* this.facts.compacting();
    const m = this.messages.size;
    for (const column of [this.role, this.author, this.streamSeq, this.position, this.asks])
      yield column.compact(m);
    for (const list of this.turns.values()) yield list.compact();
    for (const column of [this.validTo, this.expiresAt, this.importance])
      yield column.compact(this.facts.size);
    yield this.earliest.compact(this.summaries.size);
    this.version += 1;
  }

  /**
   * What the index holds, in bytes; measured again only after a change (measuring walks every
   * posting list and turn: half a second at 1 M messages, every reconciliation of an idle index).
   */
  get bytes(): number {
    if (this.measured?.version !== this.version)
      this.measured = { version: this.version, bytes: this.measure() };
    return this.measured.bytes;
  }

  private measure(): number {
    let bytes = this.messages.bytes + this.summaries.bytes + this.facts.bytes;
    bytes +=
      this.role.bytes + this.author.bytes + this.streamSeq.bytes + this.position.bytes + this.asks.bytes;
    for (const list of this.turns.values()) bytes += list.bytes;
    bytes += this.earliest.bytes + this.validTo.bytes + this.expiresAt.bytes + this.importance.bytes;
    bytes += (this.summarySources.size + this.factSources.size) * 120;
    return bytes;
  }

  private conversationNumber(id: string): number {
    return this.conversations.intern(id);
  }

  private putConversation(c: ConversationDoc): void {
    this.channels.set(this.conversationNumber(c.id), this.channelNames.intern(c.channel));
  }

  private putMessage(m: MessageDoc): void {
    this.heardLanguage(m.language);
    const t = this.messages;
    const conversation = this.conversationNumber(m.conversationId);
    const { slot, added } = t.place(m.id, this.agents.intern(m.agent), conversation);
    t.time.set(slot, m.createdAtUs);
    if (!added) this.tokens -= t.length.get(slot);
    t.length.set(slot, m.tokenEstimate);
    this.tokens += m.tokenEstimate;
    this.role.set(slot, this.roles.intern(m.role));
    this.author.set(slot, this.authors.intern(m.author));
    this.streamSeq.set(slot, m.streamSeq);
    this.position.set(slot, m.position);
    this.asks.set(slot, m.asks ? 1 : 0);
    t.post(slot, m.lexemes);
    if (added) {
      let turns = this.turns.get(conversation);
      if (!turns) this.turns.set(conversation, (turns = new SlotList()));
      turns.insertOrdered(slot, (a, b) => this.compareTurns(a, b));
    }
  }

  /** Transcript order: created_at, stream_seq, position, id. */
  compareTurns(a: number, b: number): number {
    const t = this.messages;
    return (
      t.time.get(a) - t.time.get(b) ||
      this.streamSeq.get(a) - this.streamSeq.get(b) ||
      this.position.get(a) - this.position.get(b) ||
      t.ids.get(a) - t.ids.get(b)
    );
  }

  private putSummary(s: SummaryDoc): void {
    this.heardLanguage(s.language);
    const t = this.summaries;
    const { slot } = t.place(s.id, this.agents.intern(s.agent), this.conversationNumber(s.conversationId));
    t.time.set(slot, s.latestAtUs);
    this.earliest.set(slot, s.earliestAtUs);
    t.length.set(slot, s.tokenEstimate);
    t.post(slot, s.lexemes);
    this.summarySources.set(
      slot,
      [...s.sources].sort((a, b) => a.ordinal - b.ordinal),
    );
  }

  private putFact(f: FactDoc): void {
    this.heardLanguage(f.language);
    const t = this.facts;
    const { slot } = t.place(
      f.id,
      this.agents.intern(f.agent),
      f.conversationId === null ? -1 : this.conversationNumber(f.conversationId),
    );
    t.time.set(slot, f.validFromUs);
    this.validTo.set(slot, f.validToUs ?? Number.NaN);
    this.expiresAt.set(slot, f.expiresAtUs ?? Number.NaN);
    this.importance.set(slot, f.importance);
    t.length.set(slot, f.length);
    t.post(slot, f.lexemes);
    this.factSources.set(slot, f.sourceMessageIds);
  }

  private putVector(v: VectorDoc): void {
    const t = this.table(v.kind);
    // A vector of an item not held yet comes again with the item (items are read with their vectors).
    const slot = t.slot(v.id);
    if (slot !== undefined) t.putVector(slot, v.model, v.vector);
  }

  private putAccess(a: AccessDoc): void {
    const t = this.table(a.kind);
    const slot = t.slot(a.id);
    if (slot === undefined) return;
    t.accessCount.set(slot, a.count);
    t.lastAccess.set(slot, a.lastAccessedAtUs);
  }
}
