import type { Command } from 'commander';
import { ContextBuildResponseSchema, Rpcs, type MessageInitShape, type Timestamp } from '@engram/contracts';
import { renderContext } from '@engram/mcp';
import { callEngram, examples, idOption, instant, integer, tenantCommand, tenantOf } from './engram-rpc';
import { jsonDocument } from './memory-tables';

/** `engram context`: the prompt mem.rpc.context.build would give an agent, from a terminal. */

interface ContextOptions {
  tenant: string;
  json?: boolean;
  agent: string;
  sessionKey?: string;
  conversation?: string;
  model?: string;
  budget?: number;
  asOf?: Timestamp;
}

/** The context request the options ask for (the service checks it: a bad value comes back as a violation). */
export function contextRequest(
  message: string,
  o: Omit<ContextOptions, 'tenant' | 'json'>,
): MessageInitShape<typeof Rpcs.contextBuild.request> {
  return {
    agent: o.agent,
    currentMessage: message,
    sessionKey: o.sessionKey ?? '',
    conversationId: o.conversation ?? '',
    model: o.model ?? '',
    budgetTokens: o.budget ?? 0,
    asOf: o.asOf,
  };
}

export function contextCommand(): Command {
  const command = tenantCommand(
    'context',
    'the blocks of the next prompt for a message (mem.rpc.context.build)',
  )
    .argument('<message>', 'the current message the prompt is for')
    .requiredOption('--agent <agent>', 'the agent the prompt is for')
    .option('--session-key <key>', 'the conversation by its session key')
    .addOption(idOption('--conversation <id>', 'the conversation by its id'))
    .option('--model <model>', "the model (its window and tokenizer); default the conversation's or agent's")
    .option(
      '--budget <tokens>',
      "at most this many tokens (default 75 % of the model's window)",
      integer(1, 10_000_000),
    )
    .option(
      '--as-of <date-time>',
      'the prompt as of this moment: its date, and nothing said after it',
      instant,
    )
    .action(async (message: string, options: ContextOptions) => {
      const tenantId = tenantOf(options);
      const response = await callEngram(Rpcs.contextBuild, contextRequest(message, options), tenantId);
      console.log(
        options.json ? jsonDocument(ContextBuildResponseSchema, response) : renderContext(response),
      );
    });
  return examples(command, [
    'context --tenant acme --agent support-bot --session-key support-chat-42 "Where is my order?"',
    'context --tenant acme --agent support-bot --conversation 12 --as-of 2026-03-01T12:00:00Z "hi" --json',
  ]);
}
