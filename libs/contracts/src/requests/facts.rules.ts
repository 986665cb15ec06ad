import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import type { ListAgentsRequestSchema } from '../gen/memory/v1/agents_pb';
import type { ListCompactionsRequestSchema } from '../gen/memory/v1/compactions_pb';
import type { ListConversationsRequestSchema } from '../gen/memory/v1/conversations_pb';
import type {
  GetFactRequestSchema,
  ListFactsRequestSchema,
  UpdateFactRequestSchema,
} from '../gen/memory/v1/facts_pb';
import type { ListStateRequestSchema } from '../gen/memory/v1/state_pb';
import type { SummaryTreeRequestSchema } from '../gen/memory/v1/summaries_pb';
import { isValidToken } from '../subjects';
import { FACT_CATEGORIES } from '../values/vocabulary';
import { isRowId } from '../values/row-id';
import { metadata, optionalToken, quoted, rowId, token } from './field-rules';
import { given, rule, type RequestRules } from './request-rules';
import { MAX_FACT_CHARS, MAX_FORGET_REASON_CHARS } from './memory.rules';

/**
 * The rules of what memory holds, read and edited (mem.rpc.facts.*, state.list, conversations.list,
 * summaries.tree, compactions.list, agents.list).
 */

/** Most facts or conversations one list answers. */
export const MAX_LIST_PAGE = 1000;
/** Most agents, categories or state keys one list may name. */
export const MAX_LIST_FILTER = 100;
/** Longest conversations.list query: words of a title or a session key, not a document. */
export const MAX_CONVERSATION_QUERY_CHARS = 200;
/** An agent's state key, as a [STATE:key] tag names it. */
const STATE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

const pageLimit = () =>
  rule(z.number(), (n, field) =>
    n >= 0 && n <= MAX_LIST_PAGE
      ? undefined
      : `${field} must be between 1 and ${MAX_LIST_PAGE}, or 0 for 100 (got ${n})`,
  );

const pageOffset = () =>
  rule(z.number(), (n, field) => (n >= 0 ? undefined : `${field} must be 0 or more (got ${n})`));

/** At most MAX_LIST_FILTER values, each passing `problem`: one violation for the list, naming the first bad one. */
const listOf = (problem: (value: string) => string | undefined) =>
  rule(z.array(z.string()), (list, field) => {
    if (list.length > MAX_LIST_FILTER) return `at most ${MAX_LIST_FILTER} ${field} (got ${list.length})`;
    for (const value of list) {
      const wrong = problem(value);
      if (wrong) return `${field}: ${wrong}`;
    }
    return undefined;
  });

const agentName = (value: string) =>
  isValidToken(value)
    ? undefined
    : `${quoted(value)} is not an agent name (1-64 letters, digits, "_" or "-")`;

const category = (value: string) =>
  (FACT_CATEGORIES as readonly string[]).includes(value)
    ? undefined
    : `${quoted(value)} is not one of ${FACT_CATEGORIES.join(', ')}`;

/** Fact text as memory_save takes it: not blank, at most MAX_FACT_CHARS, no NUL. */
const factContent = () =>
  rule(z.string(), (content, field) => {
    const trimmed = content.trim();
    const chars = [...trimmed].length;
    if (trimmed === '') return `${field} is required`;
    if (chars > MAX_FACT_CHARS)
      return `${field} is ${chars} characters long; at most ${MAX_FACT_CHARS} are accepted`;
    if (trimmed.includes('\u0000')) return `${field} may not contain NUL characters`;
    return undefined;
  });

/** Most fact ids one list may name. */
export const MAX_LISTED_FACT_IDS = 1000;

export const factsListRules = z
  .object({
    agents: listOf(agentName),
    categories: listOf(category),
    conversationId: rowId('conversation'),
    from: given<Timestamp>(),
    to: given<Timestamp>(),
    limit: pageLimit(),
    offset: pageOffset(),
    metadata: metadata(),
    ids: rule(z.array(z.string()), (ids, field) => {
      if (ids.length > MAX_LISTED_FACT_IDS)
        return `at most ${MAX_LISTED_FACT_IDS} ${field} (got ${ids.length})`;
      const malformed = ids.filter((id) => !isRowId(id));
      return malformed.length > 0
        ? `not fact ids: ${malformed.slice(0, 5).map(quoted).join(', ')}`
        : undefined;
    }),
  })
  .superRefine((request, ctx) => {
    if (request.from && request.to && timestampDate(request.from) > timestampDate(request.to))
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from is after to' });
  }) satisfies RequestRules<typeof ListFactsRequestSchema>;

export const factsGetRules = z.object({
  factId: rowId('fact', { required: true }),
}) satisfies RequestRules<typeof GetFactRequestSchema>;

export const factsUpdateRules = z.object({
  factId: rowId('fact', { required: true }),
  content: factContent(),
  category: rule(z.string().optional(), (value, field) => {
    if (value === undefined) return undefined;
    const wrong = category(value.trim().toLowerCase());
    return wrong ? `${field} must be one of ${FACT_CATEGORIES.join(', ')} (got ${quoted(value)})` : undefined;
  }),
  importance: rule(z.number().optional(), (n, field) =>
    n === undefined || (Number.isInteger(n) && n >= 1 && n <= 10)
      ? undefined
      : `${field} must be between 1 and 10 (got ${n})`,
  ),
  reason: rule(z.string(), (reason, field) => {
    const trimmed = reason.trim();
    if ([...trimmed].length > MAX_FORGET_REASON_CHARS)
      return `${field} is longer than ${MAX_FORGET_REASON_CHARS} characters`;
    if (trimmed.includes('\u0000')) return `${field} may not contain NUL characters`;
    return undefined;
  }),
  metadata: metadata(),
}) satisfies RequestRules<typeof UpdateFactRequestSchema>;

export const stateListRules = z.object({
  agent: token(),
  keys: listOf((key) =>
    STATE_KEY.test(key)
      ? undefined
      : `${quoted(key)} is not a state key (1-64 letters, digits, "_", "." or "-")`,
  ),
}) satisfies RequestRules<typeof ListStateRequestSchema>;

export const conversationsListRules = z.object({
  agent: optionalToken(),
  conversationId: rowId('conversation'),
  limit: pageLimit(),
  offset: pageOffset(),
  query: rule(z.string(), (query, field) => {
    if ([...query.trim()].length > MAX_CONVERSATION_QUERY_CHARS)
      return `${field} is longer than ${MAX_CONVERSATION_QUERY_CHARS} characters`;
    if (query.includes('\u0000')) return `${field} may not contain NUL characters`;
    return undefined;
  }),
}) satisfies RequestRules<typeof ListConversationsRequestSchema>;

export const summariesTreeRules = z.object({
  conversationId: rowId('conversation', { required: true }),
}) satisfies RequestRules<typeof SummaryTreeRequestSchema>;

export const compactionsListRules = z.object({
  conversationId: rowId('conversation', { required: true }),
}) satisfies RequestRules<typeof ListCompactionsRequestSchema>;

export const agentsListRules = z.object({
  limit: pageLimit(),
  offset: pageOffset(),
}) satisfies RequestRules<typeof ListAgentsRequestSchema>;
