import { timestampDate, type SearchRequest } from '@engram/contracts';
import { ITEM_KINDS, type Fusion, type ItemKind, type SearchMode, type SearchScope } from '@engram/search';

export const DEFAULT_TOP_K = 10;

export interface SearchOptions {
  readonly query: string;
  readonly mode: SearchMode;
  readonly fusion: Fusion;
  readonly topK: number;
  readonly expand: boolean;
  readonly synthesize: boolean;
  readonly scope: SearchScope;
}

/**
 * What a search request asks for, with its defaults filled in: full text, weighted
 * fusion, 10 hits, every kind, expanded, as the store stands (no asOf). The request passed its rules (libs/contracts
 * searchRules) before it got here.
 */
export function searchOptions(tenantId: string, request: SearchRequest): SearchOptions {
  const f = request.filters;
  const from = f?.from ? timestampDate(f.from) : undefined;
  const to = f?.to ? timestampDate(f.to) : undefined;
  const asOf = request.asOf ? timestampDate(request.asOf) : undefined;
  return {
    query: request.query.trim(),
    mode: (request.mode || 'fulltext') as SearchMode,
    fusion: (request.fusion || 'weighted') as Fusion,
    topK: request.topK === 0 ? DEFAULT_TOP_K : request.topK,
    expand: request.expand ?? true,
    synthesize: request.synthesize,
    scope: {
      tenantId,
      kinds: (f?.kinds.length ? f.kinds : ITEM_KINDS) as ItemKind[],
      ...(f?.agent && { agent: f.agent }),
      ...(f?.channel && { channel: f.channel }),
      ...(f?.conversationId && { conversationId: f.conversationId }),
      ...(f?.roles.length && { roles: f.roles }),
      ...(f?.metadata && Object.keys(f.metadata).length > 0 && { metadata: f.metadata }),
      ...(from && { from }),
      ...(to && { to }),
      ...(asOf && { asOf }),
    },
  };
}
