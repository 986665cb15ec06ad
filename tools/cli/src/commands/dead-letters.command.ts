import { Command } from 'commander';
import {
  DEFAULT_DEAD_LETTERS,
  ListDeadLettersResponseSchema,
  MAX_DEAD_LETTERS,
  RedriveDeadLetterResponseSchema,
  Rpcs,
  type ListDeadLettersResponse,
} from '@engram/contracts';
import { callEngram, examples, integer, tenantCommand, tenantOf } from './engram-rpc';
import { UsageError } from './cli-failure';
import { cell, jsonDocument, table, when } from './memory-tables';

/** `engram deadletters list|redrive`: what the workers gave up on, and sending it again. */

export function renderDeadLetters(response: ListDeadLettersResponse): string {
  if (response.letters.length === 0) return 'no dead letters';
  const out = table(['sequence', 'dead at', 'worker', 'subject', 'cause', 'reason', 'message']);
  for (const l of response.letters)
    out.push([
      String(l.sequence),
      when(l.deadAt),
      l.consumer,
      l.originalSubject,
      l.cause,
      cell(l.reason, 60),
      cell(l.payload, 60),
    ]);
  return out.toString();
}

export function deadLettersCommand(): Command {
  const command = new Command('deadletters').description(
    'dead letters: what a worker gave up on, why, and sending it again',
  );
  const listing = tenantCommand('list', "the tenant's dead letters, newest first (mem.rpc.deadletters.list)")
    .option(
      '--limit <n>',
      `at most this many (default ${DEFAULT_DEAD_LETTERS}, at most ${MAX_DEAD_LETTERS})`,
      integer(1, MAX_DEAD_LETTERS),
    )
    .action(async (options: { tenant: string; json?: boolean; limit?: number }) => {
      const letters = await callEngram(
        Rpcs.deadLettersList,
        { limit: options.limit ?? 0 },
        tenantOf(options),
      );
      console.log(
        options.json ? jsonDocument(ListDeadLettersResponseSchema, letters) : renderDeadLetters(letters),
      );
    });
  const redriving = tenantCommand(
    'redrive',
    "publish a dead letter's original message again and remove the letter (mem.rpc.deadletters.redrive)",
  )
    .argument('<sequence>', 'the letter, by the sequence `deadletters list` shows')
    .action(async (sequence: string, options: { tenant: string; json?: boolean }) => {
      if (!/^[1-9][0-9]{0,18}$/.test(sequence))
        throw new UsageError(`<sequence> must be a positive whole number (got ${sequence})`);
      const sent = await callEngram(
        Rpcs.deadLettersRedrive,
        { sequence: BigInt(sequence) },
        tenantOf(options),
      );
      console.log(
        options.json
          ? jsonDocument(RedriveDeadLetterResponseSchema, sent)
          : `published again on ${sent.subject} (sequence ${sent.sequence}); the letter is removed`,
      );
    });
  command.addCommand(
    examples(listing, ['deadletters list --tenant acme', 'deadletters list --tenant acme --json']),
  );
  command.addCommand(examples(redriving, ['deadletters redrive --tenant acme 42']));
  return command;
}
