import { Command } from 'commander';
import { loadConfig } from '@engram/config';
import {
  Rpcs,
  type AgentProfile,
  type MessageInitShape,
  type PutAgentRequestSchema,
} from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { connectCli } from './engram-rpc';

/** Stores an agent's profile (the whole profile: fields left out are cleared) over NATS. */
export async function putAgent(
  natsUrl: string,
  tenantId: string,
  profile: MessageInitShape<typeof PutAgentRequestSchema>,
): Promise<AgentProfile> {
  const nc = await connectCli(natsUrl);
  try {
    return await callRpc(nc, Rpcs.agentsPut, profile, { tenantId });
  } finally {
    await nc.close();
  }
}

export async function getAgent(natsUrl: string, tenantId: string, agent: string): Promise<AgentProfile> {
  const nc = await connectCli(natsUrl);
  try {
    return await callRpc(nc, Rpcs.agentsGet, { agent }, { tenantId });
  } finally {
    await nc.close();
  }
}

const printable = (profile: AgentProfile) => ({
  agent: profile.agent,
  name: profile.name ?? null,
  personality: profile.personality ?? null,
  job: profile.job ?? null,
  userName: profile.userName ?? null,
  tools: profile.tools,
  sceneMemory: profile.sceneMemory,
  model: profile.model ?? null,
  settings: profile.settings ?? {},
});

interface PutOptions {
  tenant: string;
  agent: string;
  name?: string;
  personality?: string;
  job?: string;
  userName?: string;
  tools?: string;
  sceneMemory?: boolean;
  model?: string;
  settings?: string;
}

export function agentCommand(): Command {
  const agent = new Command('agent').description(
    "an agent's profile: name, personality, job, tools, scene memory",
  );
  agent
    .command('put')
    .description('store an agent profile (replaces the stored one: options left out are cleared)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name (letters, digits, _ and -)')
    .option('--name <name>', 'display name ("You are <name>")')
    .option('--personality <text>', 'personality')
    .option('--job <text>', "the agent's job or role")
    .option('--user-name <name>', 'what the agent calls its user')
    .option('--tools <list>', 'enabled tools, comma-separated (e.g. web_search,calendar)')
    .option('--scene-memory', 'the agent has scene memory')
    .option('--model <model>', 'default model')
    .option('--settings <json>', 'settings, a JSON object')
    .action(async (options: PutOptions) => {
      let settings: Record<string, unknown> | undefined;
      if (options.settings !== undefined) {
        const parsed: unknown = JSON.parse(options.settings);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new Error('--settings must be a JSON object');
        settings = parsed as Record<string, unknown>;
      }
      const profile = await putAgent(loadConfig(['NATS_URL']).NATS_URL, options.tenant, {
        agent: options.agent,
        name: options.name,
        personality: options.personality,
        job: options.job,
        userName: options.userName,
        tools: (options.tools ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== ''),
        sceneMemory: Boolean(options.sceneMemory),
        model: options.model,
        settings: settings as never,
      });
      console.log(JSON.stringify(printable(profile), null, 2));
    });
  agent
    .command('get')
    .description('print an agent profile')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name')
    .action(async (options: { tenant: string; agent: string }) => {
      console.log(
        JSON.stringify(
          printable(await getAgent(loadConfig(['NATS_URL']).NATS_URL, options.tenant, options.agent)),
          null,
          2,
        ),
      );
    });
  return agent;
}
