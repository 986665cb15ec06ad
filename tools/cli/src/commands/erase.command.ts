import { hostname, userInfo } from 'node:os';
import { Command } from 'commander';
import { EraseResponseSchema, Rpcs, type EraseResponse } from '@engram/contracts';
import { callEngram, examples, idOption, integer, tenantCommand, tenantOf } from './engram-rpc';
import { checkToken, UsageError } from './cli-failure';
import { jsonDocument, table } from './memory-tables';

/** How long `engram erase` waits by default: a large tenant's rows and streams take a while. */
const ERASE_TIMEOUT_S = 600;

/** Who asks, as the audit entry records it: the user and host the command runs as. */
export function cliPrincipal(): string {
  let user = process.env['USER'] ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for the uid (a container): the environment's name will do.
  }
  return `cli:${user}@${hostname()}`;
}

/** The counts of an erase, a kind a row, and the audit entry it wrote. */
export function renderErased(response: EraseResponse): string {
  const what =
    response.scope === 'tenant'
      ? 'the whole tenant'
      : response.scope === 'agent'
        ? `agent ${response.agent}`
        : `conversation ${response.conversationId}${response.agent ? ` (agent ${response.agent})` : ''}`;
  const out = table(['erased', 'count']);
  const counts = response.erased;
  const rows: Array<[string, bigint | undefined]> = [
    ['conversations', counts?.conversations],
    ['messages', counts?.messages],
    ['vectors', counts?.vectors],
    ['summaries', counts?.summaries],
    ['compactions', counts?.compactions],
    ['facts', counts?.facts],
    ['state entries', counts?.stateEntries],
    ['scene nodes', counts?.sceneNodes],
    ['being notes', counts?.beingNotes],
    ['beings', counts?.beings],
    ['turns (JetStream)', counts?.turns],
    ['dead letters (JetStream)', counts?.deadLetters],
  ];
  for (const [kind, n] of rows) out.push([kind, String(n ?? 0n)]);
  return `erased ${what}: erasure ${response.erasureId}, requested by ${response.requestedBy}\n${out.toString()}`;
}

interface EraseOptions {
  tenant: string;
  json?: boolean;
  agent?: string;
  conversation?: string;
  yes?: boolean;
  timeout: number;
}

/** `engram erase`: a conversation, an agent or a whole tenant, for good (mem.rpc.erase). */
export function eraseCommand(): Command {
  const command = tenantCommand(
    'erase',
    'erase a conversation, an agent or the whole tenant for good: messages and everything derived from them, audited (mem.rpc.erase)',
  )
    .option('--agent <agent>', "the agent's conversations, facts, state and being memory")
    .addOption(idOption('--conversation <id>', 'one conversation and what was derived from it'))
    .option('--yes', 'needed to erase the whole tenant (neither --agent nor --conversation)')
    .option('--timeout <seconds>', 'how long to wait for the answer', integer(1, 86_400), ERASE_TIMEOUT_S)
    .action(async (options: EraseOptions) => {
      const tenantId = tenantOf(options);
      if (options.agent && options.conversation)
        throw new UsageError('give --agent or --conversation, not both');
      const wholeTenant = !options.agent && !options.conversation;
      if (wholeTenant && !options.yes)
        throw new UsageError(
          `erasing everything tenant ${tenantId} remembers cannot be undone: add --yes (or name --agent or --conversation)`,
        );
      const erased = await callEngram(
        Rpcs.erase,
        {
          agent: options.agent ? checkToken(options.agent, '--agent') : '',
          conversationId: options.conversation ?? '',
          wholeTenant,
        },
        tenantId,
        { timeoutMs: options.timeout * 1000, principal: cliPrincipal() },
      );
      console.log(options.json ? jsonDocument(EraseResponseSchema, erased) : renderErased(erased));
    });
  return examples(command, [
    'erase --tenant acme --conversation 12',
    'erase --tenant acme --agent support-bot --json',
    'erase --tenant acme --yes',
  ]);
}
