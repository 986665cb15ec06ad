import { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { createMemoryMcpServer } from '@engram/mcp';
import { callRpc, RpcError } from '@engram/messaging';
import { connectCli } from './engram-rpc';

/** Everything but the protocol goes to stderr: stdout belongs to the MCP client. */
const log = (line: string) => process.stderr.write(`engram mcp: ${line}\n`);

/**
 * The NATS connection of the server, made on first use: the server starts and answers its
 * client while NATS is down (each tool call then says Engram is unreachable), and a failed
 * attempt is made again by the next call. Once connected it reconnects on its own.
 */
export class NatsLink {
  private connecting: Promise<NatsConnection> | undefined;

  constructor(private readonly servers: string) {}

  connection(): Promise<NatsConnection> {
    this.connecting ??= connectCli(this.servers, { name: 'engram-mcp', maxReconnectAttempts: -1 }).catch(
      (error: unknown) => {
        this.connecting = undefined;
        throw new RpcError(
          'UNAVAILABLE',
          `cannot reach NATS at ${this.servers}: ${error instanceof Error ? error.message : String(error)}`,
          { service: 'NATS server' },
        );
      },
    );
    return this.connecting;
  }

  async close(): Promise<void> {
    const connection = await this.connecting?.catch(() => undefined);
    await connection?.drain().catch(() => undefined);
  }
}

export interface McpServeOptions {
  readonly tenant: string;
  readonly agent: string;
  readonly natsUrl: string;
}

/**
 * Serves the memory MCP server over this process's stdin and stdout until the client closes
 * stdin (or SIGINT/SIGTERM), calling Engram's RPCs over NATS; then drains and returns.
 */
export async function serveMcpOverStdio(options: McpServeOptions): Promise<void> {
  const nats = new NatsLink(options.natsUrl);
  const server = createMemoryMcpServer({
    tenant: options.tenant,
    agent: options.agent,
    call: async (spec, request, callOptions) => callRpc(await nats.connection(), spec, request, callOptions),
  });
  const stopped = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('the client closed stdin'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await server.connect(new StdioServerTransport());
  log(`serving the memory of agent ${options.agent} (tenant ${options.tenant}) over stdio`);
  nats.connection().then(
    () => log(`connected to NATS at ${options.natsUrl}`),
    (error: Error) => log(`${error.message}; tools answer that Engram is unreachable until it answers`),
  );
  log(`stopping: ${await stopped}`);
  await server.close();
  await nats.close();
}

export function mcpCommand(): Command {
  return new Command('mcp')
    .description(
      "serve an agent's memory to an MCP client over stdio: memory_search, memory_browse, memory_stats, memory_save, memory_forget, context_build, recall, recall_memory, search_memory",
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name: whose memory the tools read and write')
    .addHelpText(
      'after',
      [
        '',
        'Stdout carries the MCP protocol only; logs go to stderr. NATS_URL says where Engram is.',
        '',
        'Example (an mcpServers entry of an MCP client such as Claude Desktop):',
        '  "engram": { "command": "npm", "args": ["run", "-s", "--prefix", "/path/to/engram", "engram", "--",',
        '              "mcp", "--tenant", "acme", "--agent", "support-bot"] }',
      ].join('\n'),
    )
    .action(async (options: { tenant: string; agent: string }) => {
      await serveMcpOverStdio({ ...options, natsUrl: loadConfig(['NATS_URL']).NATS_URL });
    });
}
