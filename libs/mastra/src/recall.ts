import type { EngramClient, SearchHit } from '@engram/client';
import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory' with {
  'resolution-mode': 'import',
};
import type {
  StorageCloneThreadInput,
  StorageListMessagesInput,
  StorageListThreadsInput,
  StorageListThreadsOutput,
} from '@mastra/core/storage' with { 'resolution-mode': 'import' };
import { textOf } from './mastra-messages';

/** A page of recalled messages, as MastraMemory.recall answers. */
export interface RecallPage {
  messages: MastraDBMessage[];
  total: number;
  page: number;
  perPage: number | false;
  hasMore: boolean;
}

/**
 * A page of messages in time order: without an order, the newest page first (page 0 the newest
 * `perPage`) told oldest first, as Mastra's Memory answers; with one, that order's page.
 */
export function pageOf(
  messages: readonly MastraDBMessage[],
  args: Pick<StorageListMessagesInput, 'page' | 'perPage' | 'orderBy' | 'filter'>,
): RecallPage {
  const range = args.filter?.dateRange;
  const inRange = messages.filter((m) => withinRange(new Date(m.createdAt), range));
  const chronological = [...inRange].sort((a, b) => +new Date(a.createdAt) - +new Date(b.createdAt));
  const page = args.page ?? 0;
  const perPage = args.perPage ?? 40;
  const newestFirst = !args.orderBy || args.orderBy.direction === 'DESC';
  const ordered = newestFirst ? chronological.reverse() : chronological;
  const slice = perPage === false ? ordered : ordered.slice(page * perPage, (page + 1) * perPage);
  return {
    messages: args.orderBy ? slice : [...slice].reverse(),
    total: ordered.length,
    page,
    perPage,
    hasMore: perPage !== false && (page + 1) * perPage < ordered.length,
  };
}

type DateRange = NonNullable<NonNullable<StorageListMessagesInput['filter']>['dateRange']>;

/** Whether a time lies within a range, its ends included unless excluded. */
function withinRange(at: Date, range: DateRange | undefined): boolean {
  if (!range) return true;
  const { start, end, startExclusive, endExclusive } = range;
  if (start && (startExclusive ? at <= start : at < start)) return false;
  return !(end && (endExclusive ? at >= end : at > end));
}

/** A page of threads, filtered by resource and metadata (every pair must match), newest created first by default. */
export function threadsPage(
  threads: readonly StorageThreadType[],
  args: StorageListThreadsInput,
): StorageListThreadsOutput {
  const { resourceId, metadata = {} } = args.filter ?? {};
  const field = args.orderBy?.field ?? 'createdAt';
  const sign = args.orderBy?.direction === 'ASC' ? 1 : -1;
  const matching = threads
    .filter((t) => !resourceId || t.resourceId === resourceId)
    .filter((t) =>
      Object.entries(metadata).every(([k, v]) => JSON.stringify(t.metadata?.[k]) === JSON.stringify(v)),
    )
    .sort((a, b) => sign * (+new Date(a[field]) - +new Date(b[field])));
  const page = args.page ?? 0;
  const perPage = args.perPage ?? 100;
  return {
    threads: perPage === false ? matching : matching.slice(page * perPage, (page + 1) * perPage),
    total: matching.length,
    page,
    perPage,
    hasMore: perPage !== false && (page + 1) * perPage < matching.length,
  };
}

/** Messages of the agent's memory like the search string (Engram's hybrid search), but those already recalled. */
export async function similarMessages(
  engram: EngramClient,
  agent: string,
  query: string,
  recalled: readonly MastraDBMessage[],
): Promise<MastraDBMessage[]> {
  const found = await engram.search({
    query,
    filters: { agent, kinds: ['message'], roles: ['user', 'assistant'] },
  });
  const known = new Set(recalled.map(textOf));
  return found.hits.filter((hit) => !known.has(hit.content)).map(messageOfHit);
}

/** A search hit as a Mastra message of the role that said it. */
function messageOfHit(hit: SearchHit): MastraDBMessage {
  const seconds = Number(hit.createdAt?.seconds ?? 0n);
  return {
    id: `engram-${hit.id}`,
    role: hit.provenance?.role === 'assistant' ? 'assistant' : 'user',
    createdAt: new Date(seconds * 1000 + Math.floor((hit.createdAt?.nanos ?? 0) / 1e6)),
    content: { format: 2, parts: [{ type: 'text', text: hit.content }], content: hit.content },
  };
}

/** The messages a clone copies: by ids, then dates, then the newest `messageLimit`. */
export function clonedMessages(
  messages: readonly MastraDBMessage[],
  options: StorageCloneThreadInput['options'],
): MastraDBMessage[] {
  const { messageIds, startDate, endDate } = options?.messageFilter ?? {};
  const chosen = messages
    .filter((m) => !messageIds || messageIds.includes(m.id))
    .filter((m) => withinRange(new Date(m.createdAt), { start: startDate, end: endDate }));
  return options?.messageLimit ? chosen.slice(-options.messageLimit) : chosen;
}
