import type { Command } from 'commander';
import {
  BrowseResponseSchema,
  Rpcs,
  SearchResponseSchema,
  StatsResponseSchema,
  type MessageInitShape,
  type Timestamp,
} from '@engram/contracts';
import {
  callEngram,
  examples,
  idOption,
  instant,
  integer,
  list,
  tenantCommand,
  tenantOf,
} from './engram-rpc';
import { jsonDocument, renderBrowse, renderSearch, renderStats } from './memory-tables';

/** `engram search`, `browse` and `stats`: memory_search, memory_browse and memory_stats from a terminal. */

interface SearchOptions {
  tenant: string;
  json?: boolean;
  agent?: string;
  conversation?: string;
  channel?: string;
  kind?: string[];
  role?: string[];
  from?: Timestamp;
  to?: Timestamp;
  mode?: string;
  fusion?: string;
  topK?: number;
  expand: boolean;
  synthesize?: boolean;
  recordAccess?: boolean;
  asOf?: Timestamp;
}

/** The search request the options ask for (the service checks it: a bad value comes back as a violation). */
export function searchRequest(
  query: string,
  o: Omit<SearchOptions, 'tenant' | 'json'>,
): MessageInitShape<typeof Rpcs.search.request> {
  return {
    query,
    mode: o.mode ?? '',
    fusion: o.fusion ?? '',
    topK: o.topK ?? 0,
    expand: o.expand,
    synthesize: Boolean(o.synthesize),
    // A person looking is not the agent using its memory: no access recorded unless asked.
    recordAccess: Boolean(o.recordAccess),
    asOf: o.asOf,
    filters: {
      agent: o.agent ?? '',
      conversationId: o.conversation ?? '',
      channel: o.channel ?? '',
      kinds: o.kind ?? [],
      roles: o.role ?? [],
      from: o.from,
      to: o.to,
    },
  };
}

export function searchCommand(): Command {
  const command = tenantCommand('search', 'hybrid search over messages, summaries and facts (mem.rpc.search)')
    .argument('<query>', 'what to look for')
    .option('--agent <agent>', "only this agent's memory")
    .addOption(idOption('--conversation <id>', 'only this conversation'))
    .option('--channel <channel>', 'only this channel')
    .option('--kind <kinds>', 'message, summary, fact (comma-separated, repeatable)', list)
    .option('--role <roles>', 'user, assistant, system, tool (comma-separated, repeatable)', list)
    .option('--from <date>', 'created at or after (2026-03-01 or an ISO time)', instant)
    .option('--to <date>', 'created before', instant)
    .option('--mode <mode>', 'fulltext (default), trigram or regex')
    .option('--fusion <fusion>', 'weighted (default) or rrf')
    .option('--top-k <n>', 'how many hits (1-100, default 10)', integer(1, 100))
    .option('--no-expand', 'do not follow summary and fact hits to their sources')
    .option('--synthesize', 'also ask for a short answer citing the hits')
    .option('--record-access', 'count the hits as used (off: looking from a terminal leaves no trace)')
    .option(
      '--as-of <date-time>',
      'search as of this moment: "last week" is the week before it, nothing said after it is found',
      instant,
    )
    .action(async (query: string, options: SearchOptions) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(Rpcs.search, searchRequest(query, options), tenantId);
      console.log(options.json ? jsonDocument(SearchResponseSchema, response) : renderSearch(response));
    });
  return examples(command, [
    'search --tenant acme "metric units"',
    'search --tenant acme --agent support-bot --kind fact,message --top-k 5 "order 1042"',
    'search --tenant acme --mode regex "order [0-9]{4}" --json',
    'search --tenant acme --agent support-bot --as-of 2026-03-01T12:00:00Z "what did Ada order last week"',
  ]);
}

interface BrowseOptions {
  tenant: string;
  json?: boolean;
  agent?: string;
  conversation?: string;
  sessionKey?: string;
  cursor?: string;
  from?: Timestamp;
  around?: string;
  backward?: boolean;
  limit?: number;
}

export function browseCommand(): Command {
  const command = tenantCommand(
    'browse',
    'a conversation, or all of an agent’s messages, a page at a time in order (mem.rpc.browse)',
  )
    .addOption(idOption('--conversation <id>', 'the conversation'))
    .option(
      '--agent <agent>',
      'the agent (alone: all of its messages; with --session-key: that conversation)',
    )
    .option('--session-key <key>', 'the conversation by its session key (with --agent)')
    .option('--cursor <cursor>', 'go on from a page (the older: or newer: cursor it printed)')
    .option('--from <date>', 'start at this time', instant)
    .addOption(idOption('--around <messageId>', 'the page around this message'))
    .option('--backward', 'from the newest message back')
    .option('--limit <n>', 'messages per page (1-500, default 50)', integer(1, 500))
    .action(async (options: BrowseOptions) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(
        Rpcs.browse,
        {
          conversationId: options.conversation ?? '',
          agent: options.agent ?? '',
          sessionKey: options.sessionKey ?? '',
          cursor: options.cursor ?? '',
          from: options.from,
          aroundMessageId: options.around ?? '',
          direction: options.backward ? 'backward' : '',
          limit: options.limit ?? 0,
        },
        tenantId,
      );
      console.log(options.json ? jsonDocument(BrowseResponseSchema, response) : renderBrowse(response));
    });
  return examples(command, [
    'browse --tenant acme --agent support-bot --session-key support-chat-42',
    'browse --tenant acme --conversation 12 --backward --limit 20',
    'browse --tenant acme --conversation 12 --cursor <the newer: cursor of the last page>',
  ]);
}

export function statsCommand(): Command {
  const command = tenantCommand(
    'stats',
    'counts of the tenant’s memory and the workers’ queues (mem.rpc.stats.get)',
  )
    .option('--agent <agent>', "only this agent's memory")
    .action(async (options: { tenant: string; json?: boolean; agent?: string }) => {
      const tenantId = tenantOf(options);
      const stats = await callEngram(Rpcs.statsGet, { agent: options.agent ?? '' }, tenantId);
      console.log(options.json ? jsonDocument(StatsResponseSchema, stats) : renderStats(stats));
    });
  return examples(command, ['stats --tenant acme', 'stats --tenant acme --agent support-bot --json']);
}
