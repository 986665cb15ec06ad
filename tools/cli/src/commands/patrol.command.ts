import { toJson } from '@bufbuild/protobuf';
import { Command } from 'commander';
import { loadConfig } from '@engram/config';
import { PatrolReportSchema, Rpcs, type PatrolReport } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { renderPatrolReport } from './patrol-report';
import { connectCli } from './engram-rpc';

/** How long `engram patrol run` waits by default: a run asks a language model several times. */
const PATROL_TIMEOUT_MS = 600_000;

/** Runs a being's patrol now (mem.rpc.patrol.run) and answers what each step changed. */
export async function runPatrol(
  natsUrl: string,
  tenantId: string,
  request: { agent: string; model?: string },
  timeoutMs = PATROL_TIMEOUT_MS,
): Promise<PatrolReport> {
  const nc = await connectCli(natsUrl);
  try {
    return await callRpc(
      nc,
      Rpcs.patrolRun,
      { agent: request.agent, model: request.model ?? '' },
      { tenantId, timeoutMs },
    );
  } finally {
    await nc.close();
  }
}

export function patrolCommand(): Command {
  const patrol = new Command('patrol').description(
    "a being's patrol: scenes, decay, clusters, diary, think notes",
  );
  patrol
    .command('run')
    .description('run the patrol for a being now and print what each step changed')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name')
    .option(
      '--model <model>',
      "language model for the run (default: the agent's model, else Gerty's default)",
    )
    .option('--timeout <seconds>', 'how long to wait for the report', String(PATROL_TIMEOUT_MS / 1000))
    .option('--json', 'also print the PatrolReport as JSON, as the last line')
    .action(
      async (options: { tenant: string; agent: string; model?: string; timeout: string; json?: boolean }) => {
        const seconds = Number(options.timeout);
        if (!Number.isFinite(seconds) || seconds <= 0)
          throw new Error(`--timeout must be a number of seconds, not ${options.timeout}`);
        const report = await runPatrol(
          loadConfig(['NATS_URL']).NATS_URL,
          options.tenant,
          { agent: options.agent, model: options.model },
          seconds * 1000,
        );
        console.log(renderPatrolReport(report));
        if (options.json)
          console.log(JSON.stringify(toJson(PatrolReportSchema, report, { alwaysEmitImplicit: true })));
      },
    );
  return patrol;
}
