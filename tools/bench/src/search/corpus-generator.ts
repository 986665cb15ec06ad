import {
  FACT_CATEGORIES,
  FACT_LIFETIMES,
  LIFETIME_DAYS,
  type FactCategory,
  type FactLifetime,
} from '@engram/memory-core';
import { SeededRandom } from '../corpus/seeded-random';
import {
  factCount,
  planSummaries,
  sampleDistinct,
  type ConversationPlan,
  type TenantPlan,
} from './corpus-shape';
import type { Topic, ZipfText } from './zipf-text';

/**
 * The rows of the search benchmark's corpus, one conversation at a time (so a million messages
 * never sit in memory at once): the transcript, its summaries (leaves over ~20 messages, a
 * branch over 5 leaves) with their sources, and the facts extracted from it. Ids are assigned
 * here, in order, so summaries, sources, facts and vectors can point at rows before they are
 * loaded. Deterministic: the same plans and lexicon give the same rows.
 */

/** What the built-in model answers summaries with (`engram-local-rules-v1`). */
export const SUMMARY_MODEL = 'engram-local-rules-v1';

export interface MessageRow {
  readonly id: number;
  readonly conversationId: number;
  readonly turnId: string;
  readonly position: number;
  readonly role: 'user' | 'assistant';
  readonly author: string;
  readonly content: string;
  readonly createdAtMs: number;
}

export interface SummaryRow {
  readonly id: number;
  readonly depth: 0 | 1;
  readonly content: string;
  readonly earliestAtMs: number;
  readonly latestAtMs: number;
  readonly messageCount: number;
  readonly createdAtMs: number;
  /** Messages (depth 0) or child summaries (depth 1), in order. */
  readonly sourceKind: 'message' | 'summary';
  readonly sourceIds: readonly number[];
}

/** Share of facts that a later fact superseded (closed, not erased). */
export const CLOSED_FACT_SHARE = 0.15;

export interface FactRow {
  readonly id: number;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly origin: 'tag' | 'extracted';
  readonly originKey: string;
  readonly sourceMessageIds: readonly number[];
  readonly validFromMs: number;
  readonly validToMs: number | null;
  readonly supersededBy: number | null;
  readonly expiresAtMs: number | null;
}

export interface ConversationCorpus {
  readonly plan: ConversationPlan;
  readonly title: string;
  readonly messages: readonly MessageRow[];
  readonly summaries: readonly SummaryRow[];
  readonly facts: readonly FactRow[];
}

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The first sentence of a text (generated text ends its sentences with . ? or ! and a space). */
function firstSentence(text: string): string {
  const end = text.search(/[.?!] /);
  return end < 0 ? text : text.slice(0, end + 1);
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const capitalised = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class CorpusGenerator {
  private nextMessageId = 1;
  private nextSummaryId = 1;
  private nextFactId = 1;

  constructor(private readonly text: ZipfText) {}

  /** Rows generated so far: the next ids minus one. */
  get counts(): { messages: number; summaries: number; facts: number } {
    return {
      messages: this.nextMessageId - 1,
      summaries: this.nextSummaryId - 1,
      facts: this.nextFactId - 1,
    };
  }

  /** Conversations must be generated in plan order (tenant by tenant), as ids are handed out in order. */
  conversation(tenant: TenantPlan, plan: ConversationPlan): ConversationCorpus {
    const random = new SeededRandom(plan.seed);
    const topic = this.text.topic(random, random.int(4, 12), 0.04 + random.next() * 0.08);
    const messages = this.messages(tenant, plan, random, topic);
    const summaries = this.summaries(plan, messages, random, topic);
    const facts = this.facts(tenant, plan, messages, random, topic);
    const title = messages[0] ? firstSentence(messages[0].content).slice(0, 80) : '';
    return { plan, title, messages, summaries, facts };
  }

  private messages(
    tenant: TenantPlan,
    plan: ConversationPlan,
    random: SeededRandom,
    topic: Topic,
  ): MessageRow[] {
    const person = random.pick(tenant.people);
    const rows: MessageRow[] = [];
    let at = plan.startMs;
    for (let i = 0; i < plan.messages; i++) {
      const role = i % 2 === 0 ? 'user' : 'assistant';
      if (i > 0) {
        if (role === 'assistant') at += random.int(2 * SECOND, 90 * SECOND);
        else
          at += random.chance(0.06)
            ? random.int(2 * HOUR, 5 * DAY)
            : random.int(20 * SECOND, 15 * 60 * SECOND);
      }
      // Users write a sentence or two; answers run longer.
      const sentences = role === 'user' ? 1 + (random.chance(0.35) ? random.int(1, 2) : 0) : random.int(1, 6);
      rows.push({
        id: this.nextMessageId++,
        conversationId: plan.id,
        turnId: `${plan.sessionKey}-t${Math.floor(i / 2)}`,
        position: i % 2,
        role,
        // Now and then someone else of the team writes in a shared conversation.
        author: role === 'assistant' ? plan.agent : random.chance(0.1) ? random.pick(tenant.people) : person,
        content: this.text.paragraph(random, sentences, topic),
        createdAtMs: at,
      });
    }
    return rows;
  }

  private summaries(
    plan: ConversationPlan,
    messages: readonly MessageRow[],
    random: SeededRandom,
    topic: Topic,
  ): SummaryRow[] {
    const layout = planSummaries(messages.length, random);
    const leaves: SummaryRow[] = layout.leaves.map(([from, to]) => {
      const covered = messages.slice(from, to);
      const picked = sampleDistinct(random, covered, 3).map((m) => firstSentence(m.content));
      const terms = sampleDistinct(random, topic.words, 3);
      const latest = covered[covered.length - 1]!.createdAtMs;
      return {
        id: this.nextSummaryId++,
        depth: 0,
        content: `The user and ${plan.agent} discussed ${terms.join(', ')}. ${picked.join(' ')}`,
        earliestAtMs: covered[0]!.createdAtMs,
        latestAtMs: latest,
        messageCount: covered.length,
        createdAtMs: latest + random.int(5 * SECOND, 10 * 60 * SECOND),
        sourceKind: 'message',
        sourceIds: covered.map((m) => m.id),
      };
    });
    const branches: SummaryRow[] = layout.branches.map(([from, to]) => {
      const children = leaves.slice(from, to);
      const latest = children[children.length - 1]!.latestAtMs;
      return {
        id: this.nextSummaryId++,
        depth: 1,
        content: `Over ${children.reduce((n, c) => n + c.messageCount, 0)} messages: ${children.map((c) => firstSentence(c.content.slice(c.content.indexOf('. ') + 2))).join(' ')}`,
        earliestAtMs: children[0]!.earliestAtMs,
        latestAtMs: latest,
        messageCount: children.reduce((n, c) => n + c.messageCount, 0),
        createdAtMs: latest + random.int(10 * 60 * SECOND, 2 * HOUR),
        sourceKind: 'summary',
        sourceIds: children.map((c) => c.id),
      };
    });
    return [...leaves, ...branches];
  }

  private facts(
    tenant: TenantPlan,
    plan: ConversationPlan,
    messages: readonly MessageRow[],
    random: SeededRandom,
    topic: Topic,
  ): FactRow[] {
    const n = factCount(messages.length, random);
    const ids = Array.from({ length: n }, () => this.nextFactId++);
    // Facts are stated in transcript order; a closed one was superseded by the next.
    const sources = Array.from({ length: n }, () => random.int(0, messages.length - 1)).sort((a, b) => a - b);
    return ids.map((id, i): FactRow => {
      const source = messages[sources[i]!]!;
      const category = random.pick(FACT_CATEGORIES);
      const lifetime = random.pick(FACT_LIFETIMES);
      const validFromMs = source.createdAtMs;
      const next = i + 1 < n ? messages[sources[i + 1]!]! : null;
      const closed = next !== null && random.chance(CLOSED_FACT_SHARE);
      const days = LIFETIME_DAYS[lifetime];
      return {
        id,
        content: this.factText(category, tenant, plan, random, topic, validFromMs),
        category,
        lifetime,
        importance: random.int(1, 10),
        origin: random.chance(0.2) ? 'tag' : 'extracted',
        originKey: `bench:${plan.id}:${i}`,
        sourceMessageIds:
          random.chance(0.3) && sources[i]! > 0 ? [messages[sources[i]! - 1]!.id, source.id] : [source.id],
        validFromMs,
        validToMs: closed ? next.createdAtMs : null,
        supersededBy: closed ? ids[i + 1]! : null,
        expiresAtMs: days === null ? null : validFromMs + days * DAY,
      };
    });
  }

  private factText(
    category: FactCategory,
    tenant: TenantPlan,
    plan: ConversationPlan,
    random: SeededRandom,
    topic: Topic,
    atMs: number,
  ): string {
    const who = capitalised(random.pick(tenant.people));
    const clause = lowerFirst(this.text.sentence(random, topic));
    switch (category) {
      case 'preference':
        return `${who} prefers ${random.pick(topic.words)}: ${clause}`;
      case 'fact':
        return `${who} mentioned that ${clause}`;
      case 'event':
        return `On ${isoDay(atMs)}, ${clause}`;
      case 'relationship':
        return `${who} works with ${capitalised(random.pick(tenant.people))} on ${random.pick(topic.words)} and ${random.pick(topic.words)}.`;
      case 'decision':
        return `${who} decided that ${clause}`;
      case 'correction':
        return `Correction: ${clause}`;
      case 'task':
        return `${who} asked ${plan.agent} to ${clause}`;
      case 'general':
        return capitalised(clause);
    }
  }
}
