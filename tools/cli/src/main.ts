#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError } from '@engram/config';
import { configCommand } from './commands/config.command';
import { dbCommand } from './commands/db.command';
import { memoryCommand } from './commands/memory.command';
import { agentCommand } from './commands/agent.command';
import { workspaceCommand } from './commands/workspace.command';
import { topologyCommand } from './commands/topology.command';
import { beingCommand } from './commands/being.command';
import { patrolCommand } from './commands/patrol.command';
import { apikeyCommand } from './commands/apikey.command';
import { mcpCommand } from './commands/mcp.command';

const program = new Command('engram')
  .description('Engram: long-term memory for AI agents')
  .addCommand(dbCommand())
  .addCommand(configCommand())
  .addCommand(topologyCommand())
  .addCommand(memoryCommand())
  .addCommand(agentCommand())
  .addCommand(workspaceCommand())
  .addCommand(beingCommand())
  .addCommand(patrolCommand())
  .addCommand(apikeyCommand())
  .addCommand(mcpCommand());

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `engram: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
