import { Command } from 'commander';
import {
  FactHistorySchema,
  FactSchema,
  ForgetResponseSchema,
  ListFactsResponseSchema,
  ListStateResponseSchema,
  Rpcs,
  SaveResponseSchema,
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
import { checkToken, UsageError } from './cli-failure';
import {
  jsonDocument,
  renderFact,
  renderFactHistory,
  renderFacts,
  renderForgotten,
  renderSaved,
  renderState,
} from './memory-tables';

/** `engram save`, `forget`, `facts list|get|update` and `state get|list`: what memory holds, by hand. */

const requireAgent = (options: { agent?: string }) => {
  if (!options.agent) throw new UsageError('--agent is required');
  return checkToken(options.agent, '--agent');
};

interface SaveOptions {
  tenant: string;
  agent: string;
  json?: boolean;
  category?: string;
  lifetime?: string;
  importance?: number;
  conversation?: string;
  source?: string[];
}

export function saveCommand(): Command {
  const command = tenantCommand(
    'save',
    'store a fact for an agent, deduplicated like tagged facts (mem.rpc.save)',
  )
    .argument('<content>', 'the fact (at most 4,000 characters)')
    .requiredOption('--agent <agent>', 'agent name')
    .option(
      '--category <category>',
      'preference, fact, event, relationship, decision, correction, task, general',
    )
    .option('--lifetime <lifetime>', 'sticky (default), user_preference, project_context, learned_pattern')
    .option('--importance <n>', '1-10 (default: by category)', integer(1, 10))
    .addOption(idOption('--conversation <id>', 'the conversation it was said in'))
    .option('--source <messageIds>', 'the messages it rests on (comma-separated, repeatable)', list)
    .action(async (content: string, options: SaveOptions) => {
      const tenantId = tenantOf(options);
      const saved = await callEngram(
        Rpcs.save,
        {
          agent: requireAgent(options),
          content,
          category: options.category ?? '',
          lifetime: options.lifetime ?? '',
          importance: options.importance ?? 0,
          conversationId: options.conversation ?? '',
          sourceMessageIds: options.source ?? [],
        },
        tenantId,
      );
      console.log(options.json ? jsonDocument(SaveResponseSchema, saved) : renderSaved(saved));
    });
  return examples(command, [
    'save --tenant acme --agent support-bot "Ada prefers metric units." --category preference',
    'save --tenant acme --agent support-bot "The release is on Friday." --lifetime project_context --json',
  ]);
}

export function forgetCommand(): Command {
  const command = tenantCommand(
    'forget',
    "close a fact's validity, keeping it in the history (mem.rpc.forget)",
  )
    .argument('<factId>', 'the fact')
    .option('--reason <reason>', 'why (kept with the fact)')
    .action(async (factId: string, options: { tenant: string; json?: boolean; reason?: string }) => {
      const tenantId = tenantOf(options);
      const forgotten = await callEngram(Rpcs.forget, { factId, reason: options.reason ?? '' }, tenantId);
      console.log(options.json ? jsonDocument(ForgetResponseSchema, forgotten) : renderForgotten(forgotten));
    });
  return examples(command, ['forget --tenant acme 42 --reason "the user asked"']);
}

interface FactsListOptions {
  tenant: string;
  json?: boolean;
  agent?: string[];
  category?: string[];
  conversation?: string;
  includeClosed?: boolean;
  from?: Timestamp;
  to?: Timestamp;
  limit?: number;
  offset?: number;
}

export function factsCommand(): Command {
  const facts = new Command('facts').description('facts: list them, read a fact’s history, update one');
  const listing = tenantCommand('list', 'facts in force, newest first (mem.rpc.facts.list)')
    .option('--agent <agents>', 'of these agents (comma-separated, repeatable; default all)', list)
    .option('--category <categories>', 'of these categories (comma-separated, repeatable)', list)
    .addOption(idOption('--conversation <id>', 'said in this conversation'))
    .option('--include-closed', 'also superseded, forgotten and expired facts')
    .option('--from <date>', 'created at or after', instant)
    .option('--to <date>', 'created before', instant)
    .option('--limit <n>', 'facts per page (1-1000, default 100)', integer(1, 1000))
    .option('--offset <n>', 'skip this many', integer(0, 2_147_483_647))
    .action(async (options: FactsListOptions) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(
        Rpcs.factsList,
        {
          agents: options.agent ?? [],
          categories: options.category ?? [],
          conversationId: options.conversation ?? '',
          includeClosed: Boolean(options.includeClosed),
          from: options.from,
          to: options.to,
          limit: options.limit ?? 0,
          offset: options.offset ?? 0,
        },
        tenantId,
      );
      console.log(
        options.json
          ? jsonDocument(ListFactsResponseSchema, response)
          : renderFacts(response, options.offset ?? 0),
      );
    });
  facts.addCommand(
    examples(listing, [
      'facts list --tenant acme --agent support-bot',
      'facts list --tenant acme --category preference,fact --include-closed --limit 20 --offset 20',
    ]),
  );

  const get = tenantCommand('get', "a fact's current version and history (mem.rpc.facts.get)")
    .argument('<factId>', 'any version of the fact')
    .action(async (factId: string, options: { tenant: string; json?: boolean }) => {
      const history = await callEngram(Rpcs.factsGet, { factId }, tenantOf(options));
      console.log(options.json ? jsonDocument(FactHistorySchema, history) : renderFactHistory(history));
    });
  facts.addCommand(examples(get, ['facts get --tenant acme 42']));

  const update = tenantCommand(
    'update',
    'a new version of a fact in force, superseding it (mem.rpc.facts.update)',
  )
    .argument('<factId>', 'the fact (its current version)')
    .argument('<content>', 'what it says now')
    .option('--category <category>', 'the new version’s category (default: the old one’s)')
    .option('--importance <n>', 'the new version’s importance, 1-10', integer(1, 10))
    .option('--reason <reason>', 'why (kept with the old version)')
    .action(
      async (
        factId: string,
        content: string,
        options: { tenant: string; json?: boolean; category?: string; importance?: number; reason?: string },
      ) => {
        const fact = await callEngram(
          Rpcs.factsUpdate,
          {
            factId,
            content,
            category: options.category,
            importance: options.importance,
            reason: options.reason ?? '',
          },
          tenantOf(options),
        );
        console.log(options.json ? jsonDocument(FactSchema, fact) : renderFact(fact));
      },
    );
  facts.addCommand(
    examples(update, ['facts update --tenant acme 42 "Ada lives in Lisbon." --reason "she moved"']),
  );
  return facts;
}

export function stateCommand(): Command {
  const state = new Command('state').description("an agent's [STATE:key] values (mem.rpc.state.list)");
  const get = tenantCommand('get', 'one key’s value')
    .argument('<key>', 'the state key')
    .requiredOption('--agent <agent>', 'agent name')
    .action(async (key: string, options: { tenant: string; agent: string; json?: boolean }) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(
        Rpcs.stateList,
        { agent: requireAgent(options), keys: [key] },
        tenantId,
      );
      const entry = response.entries[0];
      if (options.json) console.log(jsonDocument(ListStateResponseSchema, response));
      else if (entry) console.log(entry.value);
      if (!entry) {
        if (!options.json) console.error(`engram: ${options.agent} has no state "${key}"`);
        process.exitCode = 2;
      }
    });
  state.addCommand(examples(get, ['state get --tenant acme --agent helper current_project']));
  const listing = tenantCommand('list', 'every key, or the keys named')
    .requiredOption('--agent <agent>', 'agent name')
    .option('--key <keys>', 'only these keys (comma-separated, repeatable)', list)
    .action(async (options: { tenant: string; agent: string; json?: boolean; key?: string[] }) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(
        Rpcs.stateList,
        { agent: requireAgent(options), keys: options.key ?? [] },
        tenantId,
      );
      console.log(options.json ? jsonDocument(ListStateResponseSchema, response) : renderState(response));
    });
  state.addCommand(
    examples(listing, [
      'state list --tenant acme --agent helper',
      'state list --tenant acme --agent helper --json',
    ]),
  );
  return state;
}
