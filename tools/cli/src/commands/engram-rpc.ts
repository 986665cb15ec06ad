import { Command, InvalidArgumentError, Option } from 'commander';
import { connect, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { timestampFromDate, type RpcSpec, type Timestamp } from '@engram/contracts';
import { loadConfig } from '@engram/config';
import { callRpc, natsCredentialsFrom } from '@engram/messaging';
import { checkToken } from './cli-failure';

/** What every command that talks to a running Engram shares: its NATS connection, its options. */

/**
 * The CLI's connection to the running Engram: NATS_URL (or `natsUrl`), as NATS_USER with NATS_PASSWORD
 * when set (the `admin` user of an authenticated NATS; a server without authentication ignores them).
 */
export function connectCli(
  natsUrl?: string,
  options: Omit<NodeConnectionOptions, 'servers'> = {},
): Promise<NatsConnection> {
  const config = loadConfig(['NATS_URL', 'NATS_USER', 'NATS_PASSWORD']);
  return connect({
    servers: (natsUrl ?? config.NATS_URL).split(','),
    name: 'engram-cli',
    ...natsCredentialsFrom(config),
    ...options,
  });
}

/** Runs `work` on a NATS connection to the running Engram (NATS_URL), closed afterwards. */
export async function withNats<T>(work: (nc: NatsConnection) => Promise<T>, natsUrl?: string): Promise<T> {
  const nc = await connectCli(natsUrl, { reconnect: false });
  try {
    return await work(nc);
  } finally {
    await nc.close();
  }
}

/** One RPC of a tenant over its own connection. */
export function callEngram<S extends RpcSpec>(
  spec: S,
  request: MessageInitShape<S['request']>,
  tenantId: string,
  options: { natsUrl?: string; timeoutMs?: number; principal?: string } = {},
): Promise<MessageShape<S['response']>> {
  return withNats(
    (nc) =>
      callRpc(nc, spec, request, {
        tenantId,
        timeoutMs: options.timeoutMs ?? 30_000,
        principal: options.principal,
      }),
    options.natsUrl,
  );
}

/** The options every memory command takes: --tenant (required) and --json. */
export function tenantCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print the answer as one JSON document (the RPC response’s protobuf JSON)');
}

/** The tenant of a command's options, checked to be a subject token. */
export const tenantOf = (options: { tenant: string }) => checkToken(options.tenant, '--tenant');

/** `--examples` text for --help: each example a line, as typed after `npm run engram --`. */
export function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ engram ${l}`).join('\n')}\n`);
}

/** A whole number in [min, max]: an option's parser (commander reports the error, exit 2). */
export function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A date or time (ISO 8601, e.g. 2026-03-01 or 2026-03-01T10:00:00Z) as a Timestamp. */
export function instant(value: string): Timestamp {
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('expected a date or time such as 2026-03-01 or 2026-03-01T10:00:00Z');
  return timestampFromDate(at);
}

/** A comma-separated list, the option repeatable: `--kind message,fact --kind summary`. */
export function list(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  ];
}

/** An option holding a row id (a conversation's, a message's). */
export const idOption = (flags: string, description: string) =>
  new Option(flags, description).argParser((value: string) => {
    if (!/^[1-9][0-9]{0,18}$/.test(value)) throw new InvalidArgumentError('expected an id (a number)');
    return value;
  });
