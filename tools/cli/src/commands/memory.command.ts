import { Command } from 'commander';
import { jetstreamManager } from '@nats-io/jetstream';
import { loadConfig } from '@engram/config';
import { MsgIds, WorkItems } from '@engram/contracts';
import { readQueueStatus, workEntry, type QueueStatus } from '@engram/messaging';
import { actAsTenant, appendToOutbox, createDataSource } from '@engram/store';
import { readSummaryTree, renderTree, treeJson } from './summary-tree';
import { connectCli } from './engram-rpc';

/** Pending, in flight and dead-lettered, for every durable consumer Engram runs. */
export async function queueStatus(natsUrl: string): Promise<QueueStatus[]> {
  const nc = await connectCli(natsUrl);
  try {
    return [...(await readQueueStatus(await jetstreamManager(nc))).queues];
  } finally {
    await nc.close();
  }
}

/**
 * Enqueues every tool call stored without content (before tool synthesis existed) for
 * description: a work item per message goes into the outbox, and the running services'
 * outbox relays publish it. Idempotent: a message's work item has one msg id and one
 * subject, so enqueueing it again adds nothing. A dry run only counts.
 */
export async function backfillToolSynthesis(options: { databaseUrl: string; dryRun: boolean }) {
  const dataSource = createDataSource(options.databaseUrl, { poolSize: 2, applicationName: 'engram-cli' });
  await dataSource.initialize();
  try {
    const perTenant: Record<string, number> = {};
    const tenants: Array<{ tenant_id: string }> = await dataSource.query(
      'SELECT engram_tenant_ids() AS tenant_id',
    );
    for (const { tenant_id: tenantId } of tenants) {
      const found = await dataSource.transaction(async (manager) => {
        await actAsTenant(manager, tenantId);
        const rows: Array<{ id: string }> = await manager.query(
          `SELECT id::text FROM messages WHERE content = '' AND tool_name IS NOT NULL ORDER BY id`,
        );
        if (!options.dryRun) {
          const entries = rows.map(({ id: messageId }) =>
            workEntry(
              WorkItems.toolSynthesis,
              tenantId,
              messageId,
              { tenantId, messageId },
              {
                msgId: MsgIds.toolSynthesis(tenantId, messageId),
              },
            ),
          );
          await appendToOutbox(manager, tenantId, entries, 0);
        }
        return rows.length;
      });
      if (found > 0) perTenant[tenantId] = found;
    }
    return perTenant;
  } finally {
    await dataSource.destroy();
  }
}

export function memoryCommand(): Command {
  const memory = new Command('memory').description('the memory pipeline of a running Engram');
  memory
    .command('queue-status')
    .description('pending, in flight and failed (dead-lettered) messages of every queue')
    .option('--json', 'one JSON object per queue')
    .action(async (options: { json?: boolean }) => {
      const rows = await queueStatus(loadConfig(['NATS_URL']).NATS_URL);
      if (options.json) rows.forEach((r) => console.log(JSON.stringify(r)));
      else console.table(rows);
    });
  memory
    .command('backfill-tool-synthesis')
    .alias('backfill-tool-synth')
    .description('enqueue every stored tool call without content for a one-sentence description')
    .option('--dry-run', 'only count what would be enqueued')
    .action(async (options: { dryRun?: boolean }) => {
      const config = loadConfig(['DATABASE_URL']);
      const perTenant = await backfillToolSynthesis({
        databaseUrl: config.DATABASE_URL,
        dryRun: Boolean(options.dryRun),
      });
      const total = Object.values(perTenant).reduce((a, b) => a + b, 0);
      for (const [tenant, count] of Object.entries(perTenant)) console.log(`${tenant}: ${count}`);
      console.log(`${options.dryRun ? 'would enqueue' : 'enqueued'} ${total} tool call(s) for description`);
    });
  memory
    .command('tree')
    .description(
      "print a conversation's summary tree: roots, branches and leaves with their spans, counts, models and summaries",
    )
    .requiredOption('--tenant <tenant>', 'the tenant the conversation belongs to')
    .option('--conversation <id>', 'the conversation id')
    .option('--session-key <key>', 'the conversation by its session key (with --agent)')
    .option('--agent <agent>', 'the agent of --session-key')
    .option('--full', 'whole summaries, not their first 200 characters')
    .option('--json', 'the tree as JSON')
    .action(
      async (options: {
        tenant: string;
        conversation?: string;
        sessionKey?: string;
        agent?: string;
        full?: boolean;
        json?: boolean;
      }) => {
        if (!options.conversation && !(options.sessionKey && options.agent)) {
          throw new Error(
            'name the conversation: --conversation <id>, or --session-key <key> with --agent <agent>',
          );
        }
        if (options.conversation && !/^[1-9][0-9]{0,18}$/.test(options.conversation))
          throw new Error(`--conversation must be a conversation id (a number), not ${options.conversation}`);
        const ref = options.conversation
          ? { conversationId: options.conversation }
          : { sessionKey: options.sessionKey!, agent: options.agent! };
        const tree = await readSummaryTree(loadConfig(['DATABASE_URL']).DATABASE_URL, options.tenant, ref);
        if (!tree) throw new Error(`tenant ${options.tenant} has no such conversation`);
        console.log(
          options.json
            ? JSON.stringify(treeJson(tree), null, 2)
            : renderTree(tree, { full: Boolean(options.full) }),
        );
      },
    );
  return memory;
}
