#!/usr/bin/env node
import { Command } from 'commander';
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
import { natsUserCommand } from './commands/nats-user.command';
import { browseCommand, searchCommand, statsCommand } from './commands/search.command';
import { contextCommand } from './commands/context.command';
import { factsCommand, forgetCommand, saveCommand, stateCommand } from './commands/facts.command';
import { exportCommand, importCommand } from './commands/transcript.command';
import { deadLettersCommand } from './commands/dead-letters.command';
import { backupCommand, restoreCommand } from './commands/backup.command';
import { eraseCommand } from './commands/erase.command';
import { failureOf } from './commands/cli-failure';

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
  .addCommand(mcpCommand())
  .addCommand(natsUserCommand())
  .addCommand(searchCommand())
  .addCommand(browseCommand())
  .addCommand(statsCommand())
  .addCommand(contextCommand())
  .addCommand(saveCommand())
  .addCommand(forgetCommand())
  .addCommand(factsCommand())
  .addCommand(stateCommand())
  .addCommand(importCommand())
  .addCommand(exportCommand())
  .addCommand(deadLettersCommand())
  .addCommand(backupCommand())
  .addCommand(restoreCommand())
  .addCommand(eraseCommand());

/** Usage errors of every (sub)command come back as CommanderErrors, so one place sets their exit code. */
const throwOnExit = (command: Command): void => {
  command.exitOverride();
  command.commands.forEach(throwOnExit);
};
throwOnExit(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  const { lines, exitCode } = failureOf(error);
  for (const line of lines) console.error(line);
  process.exit(exitCode);
});
