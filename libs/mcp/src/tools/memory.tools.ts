import { toJson } from '@bufbuild/protobuf';
import {
  BrowseResponseSchema,
  FACT_CATEGORIES,
  FACT_LIFETIMES,
  ForgetResponseSchema,
  FUSIONS,
  ITEM_KINDS,
  MAX_FACT_CHARS,
  MAX_FORGET_REASON_CHARS,
  MAX_PAGE,
  MAX_QUERY_CHARS,
  MAX_SOURCE_MESSAGES,
  MAX_TOP_K,
  MESSAGE_ROLES,
  Rpcs,
  SEARCH_MODES,
  SearchResponseSchema,
  StatsResponseSchema,
  timestampFromDate,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { agentName, choice, flag, instant, integer, list, rowId, text } from '../arguments';
import { defineTool } from '../memory-tool';
import { renderSearch, renderStats, renderTranscript, when } from '../render';
import type { ToolScope } from '../tool-scope';

/** Hits memory_search answers when the assistant does not say. */
export const DEFAULT_TOP_K = 10;
/** Messages memory_browse answers when the assistant does not say: a page an assistant reads whole. */
export const DEFAULT_BROWSE_LIMIT = 20;
/** How long a search may take when it asks for a synthesis (retrieval waits up to 20 s for it). */
const SYNTHESIS_TIMEOUT_MS = 30_000;
/** Longest session key or cursor an argument may be. */
const MAX_KEY_CHARS = 1000;

/** Another agent of the same tenant, for the tools that read (the tenant is the boundary, not the agent). */
const otherAgent = () =>
  agentName("Another agent of the same tenant whose memory to read; default: this server's agent").optional();

const json = { alwaysEmitImplicit: true } as const;

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search long-term memory',
  description: [
    "Search this agent's long-term memory — every message of its past conversations, the summaries over them, and the facts it keeps — for what bears on a question or topic.",
    'Use it before answering anything that may depend on earlier conversations: who someone is, what the user prefers or decided, what was said or done and when.',
    'Returns up to topK items (default 10), best first, one per line: `[kind:id] score · time · who · conversation — content`; a summary or fact hit is followed by its source messages (↳).',
    'Pass a `message:id` to memory_browse (aroundMessageId) to read the conversation around it, a `fact:id` to memory_forget to retract it.',
    'The query is natural language or keywords (at most 2,000 characters); mode "trigram" tolerates misspellings, "regex" matches a pattern. Set synthesize for a short answer citing the items.',
  ].join(' '),
  arguments: {
    query: text('What to look for: a question, a topic or keywords', MAX_QUERY_CHARS),
    topK: integer(
      `How many items to return, 1-${MAX_TOP_K}; default ${DEFAULT_TOP_K}`,
      1,
      MAX_TOP_K,
    ).optional(),
    mode: choice(
      SEARCH_MODES,
      'How the query matches: "fulltext" (default: words and meaning), "trigram" (fuzzy, tolerates misspellings) or "regex" (a pattern)',
    ).optional(),
    fusion: choice(
      FUSIONS,
      'How the ranking signals combine: "weighted" (default: a weighted sum of full-text, meaning, recency and importance) or "rrf" (reciprocal rank fusion of the full-text and meaning rankings, k = 60)',
    ).optional(),
    kinds: list(
      choice(ITEM_KINDS, 'A kind of item'),
      'Only these kinds of item (default: all)',
      ITEM_KINDS.length,
    ).optional(),
    roles: list(
      choice(MESSAGE_ROLES, 'A role'),
      'Only messages said in these roles',
      MESSAGE_ROLES.length,
    ).optional(),
    conversationId: rowId('conversation', 'Only this conversation (its id, as hits show it)').optional(),
    from: instant('Only items from this time on').optional(),
    to: instant('Only items up to this time').optional(),
    synthesize: flag('Also answer the query in a few sentences from the items found, citing them').optional(),
    asOf: instant(
      'Search memory as it was at this moment: "last week" and "yesterday" count back from it, and nothing said after it is found (a fact changed since comes back as it was then); default now',
    ).optional(),
    agent: otherAgent(),
  },
  annotations: { readOnlyHint: true },
  async run(args, scope) {
    const response = await scope.call(
      Rpcs.search,
      {
        query: args.query,
        mode: args.mode ?? '',
        fusion: args.fusion ?? '',
        topK: args.topK ?? DEFAULT_TOP_K,
        synthesize: args.synthesize ?? false,
        ...(args.asOf && { asOf: timestampFromDate(args.asOf) }),
        filters: {
          agent: args.agent ?? scope.agent,
          conversationId: args.conversationId ?? '',
          kinds: args.kinds ?? [],
          roles: args.roles ?? [],
          ...(args.from && { from: timestampFromDate(args.from) }),
          ...(args.to && { to: timestampFromDate(args.to) }),
        },
      },
      args.synthesize ? SYNTHESIS_TIMEOUT_MS : undefined,
    );
    return {
      text: renderSearch(response, args.query),
      structured: toJson(SearchResponseSchema, response, json) as Record<string, unknown>,
    };
  },
});

export const memoryBrowse = defineTool({
  name: 'memory_browse',
  title: 'Read a conversation',
  description: [
    "Read this agent's conversations word for word, in order, a page at a time: one conversation (by sessionKey or conversationId) or, when neither is given, all of the agent's messages.",
    'Use it to see the context of a memory_search hit (aroundMessageId: the message:id of the hit), to reread a conversation, or to find what was said at a time (from).',
    `Returns up to limit messages (default ${DEFAULT_BROWSE_LIMIT}, at most ${MAX_PAGE}), oldest first, as \`[message:id] time · role (author) — content\`, and cursors to read the older or newer page next.`,
    'Give at most one of aroundMessageId, from and cursor; without any, the page starts at the beginning (direction "forward") or the end ("backward").',
  ].join(' '),
  arguments: {
    sessionKey: text('The conversation as the runtime names it (its session key)', MAX_KEY_CHARS).optional(),
    conversationId: rowId(
      'conversation',
      'The conversation by its id (as search hits and messages show it)',
    ).optional(),
    aroundMessageId: rowId('message', 'Start around this message: its id or ref ("message:12")').optional(),
    from: instant('Start at this time').optional(),
    cursor: text('A cursor from a previous page, to read on', MAX_KEY_CHARS).optional(),
    direction: choice(
      ['forward', 'backward'],
      'Read from the start on ("forward", default) or from the end back ("backward")',
    ).optional(),
    limit: integer(
      `Messages per page, 1-${MAX_PAGE}; default ${DEFAULT_BROWSE_LIMIT}`,
      1,
      MAX_PAGE,
    ).optional(),
    agent: otherAgent(),
  },
  annotations: { readOnlyHint: true },
  async run(args, scope) {
    const response = await scope.call(Rpcs.browse, {
      agent: args.agent ?? scope.agent,
      sessionKey: args.sessionKey ?? '',
      conversationId: args.conversationId ?? '',
      aroundMessageId: args.aroundMessageId ?? '',
      cursor: args.cursor ?? '',
      direction: args.direction ?? '',
      limit: args.limit ?? DEFAULT_BROWSE_LIMIT,
      ...(args.from && { from: timestampFromDate(args.from) }),
    });
    return {
      text: renderTranscript(response),
      structured: toJson(BrowseResponseSchema, response, json) as Record<string, unknown>,
    };
  },
});

export const memoryStats = defineTool({
  name: 'memory_stats',
  title: 'What memory holds',
  description: [
    "How much this agent's memory holds and how far Engram's workers are with it: messages stored and embedded, open facts by category, conversations summarised, and the work queues (over all tenants) with their dead letters.",
    'Use it to tell whether memory is empty, still catching up (a search may miss what was said seconds ago), or stuck.',
  ].join(' '),
  arguments: { agent: otherAgent() },
  annotations: { readOnlyHint: true },
  async run(args, scope) {
    const agent = args.agent ?? scope.agent;
    const stats = await scope.call(Rpcs.statsGet, { agent });
    return {
      text: renderStats(stats, agent),
      structured: toJson(StatsResponseSchema, stats, json) as Record<string, unknown>,
    };
  },
});

export const memorySave = defineTool({
  name: 'memory_save',
  title: 'Remember a fact',
  description: [
    'Keep a fact in long-term memory explicitly: something durable the user stated or asked you to remember — a preference, a decision, a correction, a task, a person or relationship.',
    `Write it as one self-contained statement (at most ${MAX_FACT_CHARS} characters), naming who it is about ("Ada prefers metric units").`,
    'A fact memory already holds (more than 70 % of its words in an open fact) is not stored twice: the answer names the fact that holds it, and its lifetime is renewed.',
    "Returns the fact's ref (fact:id), which memory_forget takes. The fact is saved for this server's agent and is found by memory_search and put in its prompts.",
  ].join(' '),
  arguments: {
    content: text('The fact, as one self-contained statement', MAX_FACT_CHARS),
    category: choice(FACT_CATEGORIES, 'What it is; default "general"').optional(),
    lifetime: choice(
      FACT_LIFETIMES,
      'How long it holds: "sticky" (default: until forgotten), "user_preference" (90 days), "project_context" or "learned_pattern" (30 days), each renewed when it is said again',
    ).optional(),
    importance: integer("1 (trivia) to 10 (essential); default: the category's", 1, 10).optional(),
    conversationId: rowId('conversation', 'The conversation it was said in').optional(),
    sourceMessageIds: list(
      rowId('message', 'A message id or ref ("message:12")'),
      'The messages it rests on',
      MAX_SOURCE_MESSAGES,
    ).optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(args, scope) {
    const saved = await scope.call(Rpcs.save, {
      agent: scope.agent,
      content: args.content,
      category: args.category ?? '',
      lifetime: args.lifetime ?? '',
      importance: args.importance ?? 0,
      conversationId: args.conversationId ?? '',
      sourceMessageIds: args.sourceMessageIds ?? [],
    });
    return {
      text: saved.deduplicated
        ? `Already remembered as fact:${saved.factId} (its lifetime renewed); nothing new was stored.`
        : `Remembered as fact:${saved.factId}.`,
      structured: { factId: saved.factId, ref: `fact:${saved.factId}`, deduplicated: saved.deduplicated },
    };
  },
});

export const memoryForget = defineTool({
  name: 'memory_forget',
  title: 'Forget a fact',
  description: [
    "Retract one of this agent's facts, e.g. when the user says it is no longer true or asks you to forget it: from then on memory_search and prompts leave it out.",
    'Nothing is deleted: the fact stays in the history, closed, with the reason. Forgetting a forgotten fact changes nothing.',
    'Takes the fact\'s id or ref ("fact:6", as memory_search and memory_save show it); only facts, not messages or summaries, and only this agent\'s.',
  ].join(' '),
  arguments: {
    factId: rowId('fact', 'The fact: its id or ref ("fact:6")'),
    reason: text('Why it is forgotten, kept with the fact', MAX_FORGET_REASON_CHARS, {
      blank: true,
    }).optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(args, scope) {
    const factId = args.factId;
    await ensureOwnFact(scope, factId);
    const forgotten = await scope.call(Rpcs.forget, { factId, reason: args.reason ?? '' });
    return {
      text: `Forgot fact:${forgotten.factId} (closed ${when(forgotten.validTo)} UTC); it is no longer served.`,
      structured: toJson(ForgetResponseSchema, forgotten, json) as Record<string, unknown>,
    };
  },
});

/**
 * The fact is the server's agent's own: mem.rpc.forget closes any fact of the tenant, so the
 * tool asks mem.rpc.expand whose it is first (NOT_FOUND when the tenant holds no such fact).
 */
async function ensureOwnFact(scope: ToolScope, factId: string): Promise<void> {
  const recalled = await scope.call(Rpcs.expand, { refs: [`fact:${factId}`], depth: 1 });
  const fact = recalled.items.find((item) => item.kind === 'fact' && !item.expandedFrom);
  const owner = fact?.provenance?.agent;
  if (owner !== undefined && owner !== scope.agent)
    throw new RpcError(
      'PERMISSION_DENIED',
      `fact:${factId} is agent ${owner}'s, not ${scope.agent}'s; this server forgets only its own agent's facts`,
    );
}
