import { timestampDate, type SearchRequest } from '@engram/contracts';
import { MESSAGE_ROLES } from '@engram/memory-core';
import { RpcError } from '@engram/messaging';
import {
  checkPattern,
  ITEM_KINDS,
  type Fusion,
  type ItemKind,
  type SearchMode,
  type SearchScope,
} from '@engram/search';

export const DEFAULT_TOP_K = 10;
export const MAX_TOP_K = 100;
/** Longer than any question; a document pasted as a query is a mistake worth telling about. */
export const MAX_QUERY_CHARS = 2000;

export interface ValidSearch {
  readonly query: string;
  readonly mode: SearchMode;
  readonly fusion: Fusion;
  readonly topK: number;
  readonly expand: boolean;
  readonly synthesize: boolean;
  readonly scope: SearchScope;
}

const MODES: readonly SearchMode[] = ['fulltext', 'trigram', 'regex'];
const FUSIONS: readonly Fusion[] = ['weighted', 'rrf'];
const ID = /^\d{1,19}$/;

/** The request, checked field by field; a bad one gets INVALID_ARGUMENT naming the field. */
export function validateSearch(tenantId: string, request: SearchRequest): ValidSearch {
  const query = request.query.trim();
  if (!query) throw RpcError.invalidArgument('query is empty', { field: 'query' });
  if (query.length > MAX_QUERY_CHARS) {
    throw RpcError.invalidArgument(`query is longer than ${MAX_QUERY_CHARS} characters`, {
      field: 'query',
      length: query.length,
    });
  }
  const mode = (request.mode || 'fulltext') as SearchMode;
  if (!MODES.includes(mode))
    throw RpcError.invalidArgument(`mode must be one of ${MODES.join(', ')}`, {
      field: 'mode',
      mode: request.mode,
    });
  const fusion = (request.fusion || 'weighted') as Fusion;
  if (!FUSIONS.includes(fusion))
    throw RpcError.invalidArgument(`fusion must be one of ${FUSIONS.join(', ')}`, {
      field: 'fusion',
      fusion: request.fusion,
    });
  const topK = request.topK === 0 ? DEFAULT_TOP_K : request.topK;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw RpcError.invalidArgument(`topK must be between 1 and ${MAX_TOP_K}`, {
      field: 'topK',
      topK: request.topK,
    });
  }
  if (mode === 'regex') {
    const check = checkPattern(query);
    if (!check.ok)
      throw RpcError.invalidArgument(`the regex cannot be used: ${check.reason}`, { field: 'query', mode });
  }
  const f = request.filters;
  const kinds = f?.kinds.length ? f.kinds : ITEM_KINDS;
  const unknownKind = kinds.find((k) => !(ITEM_KINDS as readonly string[]).includes(k));
  if (unknownKind)
    throw RpcError.invalidArgument(`kinds must be among ${ITEM_KINDS.join(', ')}`, {
      field: 'filters.kinds',
      kind: unknownKind,
    });
  const unknownRole = f?.roles.find((r) => !(MESSAGE_ROLES as readonly string[]).includes(r));
  if (unknownRole)
    throw RpcError.invalidArgument(`roles must be among ${MESSAGE_ROLES.join(', ')}`, {
      field: 'filters.roles',
      role: unknownRole,
    });
  if (f?.conversationId && !ID.test(f.conversationId)) {
    throw RpcError.invalidArgument('conversationId is not a conversation id', {
      field: 'filters.conversationId',
    });
  }
  const from = f?.from ? timestampDate(f.from) : undefined;
  const to = f?.to ? timestampDate(f.to) : undefined;
  if (from && to && from > to)
    throw RpcError.invalidArgument('filters.from is after filters.to', { field: 'filters.from' });
  return {
    query,
    mode,
    fusion,
    topK,
    expand: request.expand ?? true,
    synthesize: request.synthesize,
    scope: {
      tenantId,
      kinds: kinds as ItemKind[],
      ...(f?.agent && { agent: f.agent }),
      ...(f?.channel && { channel: f.channel }),
      ...(f?.conversationId && { conversationId: f.conversationId }),
      ...(f?.roles.length && { roles: f.roles }),
      ...(from && { from }),
      ...(to && { to }),
    },
  };
}
