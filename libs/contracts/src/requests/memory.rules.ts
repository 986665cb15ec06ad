import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import type {
  BrowseRequestSchema,
  ForgetRequestSchema,
  ExpandRequestSchema,
  SaveRequestSchema,
  SearchRequestSchema,
  StatsRequestSchema,
} from '../gen/memory/v1/retrieval_pb';
import { parseItemRef } from '../values/item-ref';
import { checkPattern } from '../values/regex-pattern';
import { isRowId } from '../values/row-id';
import { decodeCursor } from '../values/transcript-cursor';
import { FACT_CATEGORIES, FACT_LIFETIMES, ITEM_KINDS, MESSAGE_ROLES } from '../values/vocabulary';
import { metadata, oneOf, optionalToken, quoted, rowId, token } from './field-rules';
import { given, rule, type RequestRules } from './request-rules';

/** The rules of the memory RPCs (mem.rpc.search, browse, stats, recall, save, forget). */

export const SEARCH_MODES = ['fulltext', 'trigram', 'regex'] as const;
export const FUSIONS = ['weighted', 'rrf'] as const;
export const CONSISTENCIES = ['eventual', 'strong'] as const;
export const MAX_TOP_K = 100;
/** Longer than any question; a document pasted as a query is a mistake worth telling about. */
export const MAX_QUERY_CHARS = 2000;
export const MAX_PAGE = 500;
/** Longest fact memory_save accepts, in characters (code points): a fact, not a document. */
export const MAX_FACT_CHARS = 4000;
/** Most source messages one saved fact may cite. */
export const MAX_SOURCE_MESSAGES = 100;
/** Longest reason kept with a forgotten fact, in characters (code points). */
export const MAX_FORGET_REASON_CHARS = 1000;
/** Most refs one recall may ask for. */
export const MAX_EXPAND_REFS = 100;
/** How far a recall drills down at most (3: from a root summary down to messages). */
export const MAX_EXPAND_DEPTH = 3;

/** Each of `list` among `allowed`: one violation for the list, naming the first stranger. */
const among = (allowed: readonly string[]) =>
  rule(z.array(z.string()), (list, field) => {
    const stranger = list.find((value) => !allowed.includes(value));
    const name = field.slice(field.lastIndexOf('.') + 1);
    return stranger === undefined
      ? undefined
      : `${name} must be among ${allowed.join(', ')} (got ${quoted(stranger)})`;
  });

const between = (min: number, max: number, orZero: string) =>
  rule(z.number(), (n, field) =>
    n === 0 || (n >= min && n <= max)
      ? undefined
      : `${field} must be between ${min} and ${max}${orZero} (got ${n})`,
  );

const searchFilters = z
  .object({
    agent: optionalToken(),
    conversationId: rowId('conversation'),
    kinds: among(ITEM_KINDS),
    roles: among(MESSAGE_ROLES),
    from: given<Timestamp>(),
    to: given<Timestamp>(),
    metadata: metadata(),
  })
  .superRefine((f, ctx) => {
    if (f.from && f.to && timestampDate(f.from) > timestampDate(f.to))
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'filters.from is after filters.to' });
  });

export const searchRules = z
  .object({
    query: rule(z.string(), (query) => {
      const trimmed = query.trim();
      if (trimmed === '') return 'query is empty';
      if (trimmed.length > MAX_QUERY_CHARS) return `query is longer than ${MAX_QUERY_CHARS} characters`;
      return undefined;
    }),
    mode: oneOf(SEARCH_MODES),
    fusion: oneOf(FUSIONS),
    consistency: oneOf(CONSISTENCIES),
    topK: between(1, MAX_TOP_K, ''),
    filters: searchFilters.optional(),
  })
  .superRefine((request, ctx) => {
    // A pattern Postgres would take seconds over on every row is refused before it runs.
    if (request.mode !== 'regex') return;
    const check = checkPattern(request.query.trim());
    if (!check.ok)
      ctx.addIssue({ code: 'custom', path: ['query'], message: `the regex cannot be used: ${check.reason}` });
  }) satisfies RequestRules<typeof SearchRequestSchema>;

export const browseRules = z
  .object({
    conversationId: rowId('conversation'),
    agent: optionalToken(),
    sessionKey: z.string(),
    cursor: rule(z.string(), (cursor) =>
      cursor === '' || decodeCursor(cursor) ? undefined : 'cursor is not one this service returned',
    ),
    from: given<Timestamp>(),
    aroundMessageId: rowId('message'),
    direction: rule(z.string(), (direction) =>
      ['', 'forward', 'backward'].includes(direction)
        ? undefined
        : `direction must be "forward" or "backward" (got ${quoted(direction)})`,
    ),
    limit: between(1, MAX_PAGE, ''),
  })
  .superRefine((request, ctx) => {
    const problem = (field: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    if (request.sessionKey && !request.agent) problem('agent', 'sessionKey needs the agent it belongs to');
    if (!request.conversationId && !request.sessionKey && !request.agent)
      problem('conversationId', 'say what to browse: conversationId, agent + sessionKey, or agent');
    const starts = (['cursor', 'from', 'aroundMessageId'] as const).filter((field) => request[field]);
    for (const field of starts.slice(1))
      problem(field, 'give at most one of cursor, from and aroundMessageId');
  }) satisfies RequestRules<typeof BrowseRequestSchema>;

export const statsRules = z.object({ agent: optionalToken() }) satisfies RequestRules<
  typeof StatsRequestSchema
>;

export const expandRules = z.object({
  refs: rule(
    z.array(
      rule(z.string(), (ref, field) =>
        parseItemRef(ref)
          ? undefined
          : `${field} ${quoted(ref)} is not a ref like "message:123", "summary:45" or "fact:6"`,
      ),
    ),
    (refs) => {
      if (refs.length === 0) return 'refs is empty: name the items to expand';
      if (refs.length > MAX_EXPAND_REFS)
        return `at most ${MAX_EXPAND_REFS} refs per expansion (got ${refs.length})`;
      return undefined;
    },
  ),
  depth: between(1, MAX_EXPAND_DEPTH, `, or 0 for ${MAX_EXPAND_DEPTH}`),
}) satisfies RequestRules<typeof ExpandRequestSchema>;

/** The category or lifetime as memory_save reads it: trimmed, any letter case, empty for the default. */
const word = (allowed: readonly string[]) =>
  rule(z.string(), (value, field) => {
    const normal = value.trim().toLowerCase();
    return normal === '' || allowed.includes(normal)
      ? undefined
      : `${field} must be one of ${allowed.join(', ')} (got ${quoted(value)})`;
  });

/** Longest idempotency key a save may carry, in characters. */
export const MAX_SAVE_KEY_CHARS = 200;

export const saveRules = z
  .object({
    agent: token(),
    content: rule(z.string(), (content) => {
      const trimmed = content.trim();
      const chars = [...trimmed].length;
      if (trimmed === '') return 'content is required';
      if (chars > MAX_FACT_CHARS)
        return `content is ${chars} characters long; at most ${MAX_FACT_CHARS} are accepted`;
      if (trimmed.includes('\u0000')) return 'content may not contain NUL characters';
      return undefined;
    }),
    category: word(FACT_CATEGORIES),
    lifetime: word(FACT_LIFETIMES),
    importance: between(1, 10, ", or 0 for the category's default"),
    conversationId: rowId('conversation'),
    sourceMessageIds: rule(z.array(z.string()), (ids) => {
      const distinct = [...new Set(ids)];
      if (distinct.length > MAX_SOURCE_MESSAGES)
        return `at most ${MAX_SOURCE_MESSAGES} source messages may be cited (got ${distinct.length})`;
      const malformed = distinct.filter((id) => !isRowId(id));
      if (malformed.length > 0) return `not message ids: ${malformed.slice(0, 5).map(quoted).join(', ')}`;
      return undefined;
    }),
    metadata: metadata(),
    validFrom: given<Timestamp>(),
    validTo: given<Timestamp>(),
    key: rule(z.string(), (key, field) => {
      if ([...key].length > MAX_SAVE_KEY_CHARS)
        return `${field} is longer than ${MAX_SAVE_KEY_CHARS} characters`;
      if (key.includes('\u0000')) return `${field} may not contain NUL characters`;
      return undefined;
    }),
  })
  .superRefine((request, ctx) => {
    // A little slack for the caller's clock: "now" is the caller's as much as ours.
    const future = Date.now() + 60_000;
    const from = request.validFrom ? timestampDate(request.validFrom) : undefined;
    const to = request.validTo ? timestampDate(request.validTo) : undefined;
    if (from && from.getTime() > future)
      ctx.addIssue({ code: 'custom', path: ['validFrom'], message: 'validFrom is in the future' });
    if (to && to.getTime() > future)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validTo is in the future' });
    if (from && to && to <= from)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validTo is not after validFrom' });
  }) satisfies RequestRules<typeof SaveRequestSchema>;

export const forgetRules = z.object({
  factId: rowId('fact', { required: true }),
  reason: rule(z.string(), (reason) => {
    const trimmed = reason.trim();
    if ([...trimmed].length > MAX_FORGET_REASON_CHARS)
      return `reason is longer than ${MAX_FORGET_REASON_CHARS} characters`;
    if (trimmed.includes('\u0000')) return 'reason may not contain NUL characters';
    return undefined;
  }),
}) satisfies RequestRules<typeof ForgetRequestSchema>;
