import { Command } from 'commander';
import { nkeys } from '@nats-io/transport-node';
import { runtimeAccount, runtimeAccountBlock } from '@engram/contracts';
import { renderRuntimeAccountValues } from '../topology/nats-config';
import { checkToken, UsageError } from './cli-failure';

/** A runtime's key pair: the public key goes into nats-server's configuration, the seed to the runtime. */
export interface RuntimeKey {
  readonly publicKey: string;
  /** Absent when the public key was given: the runtime made the pair and keeps its seed. */
  readonly seed?: string;
}

/** The given public key (a user nkey, `U…`), checked; else a new pair. */
export function runtimeKey(publicKey?: string): RuntimeKey {
  if (publicKey !== undefined) {
    if (!isUserPublicKey(publicKey))
      throw new UsageError(`--nkey must be a user's public nkey (U…), not ${JSON.stringify(publicKey)}`);
    return { publicKey };
  }
  const pair = nkeys.createUser();
  return { publicKey: pair.getPublicKey(), seed: new TextDecoder().decode(pair.getSeed()) };
}

/** A user's public nkey: `U…` whose checksum holds. */
function isUserPublicKey(value: string): boolean {
  try {
    return value.startsWith('U') && nkeys.fromPublic(value).getPublicKey() === value;
  } catch {
    return false;
  }
}

export function natsUserCommand(): Command {
  return new Command('nats-user')
    .description(
      "the NATS account of a tenant's agent runtimes: it may publish the tenant's turns and request its RPCs, nothing else",
    )
    .requiredOption('--tenant <tenant>', 'the tenant the runtimes act for')
    .option(
      '--nkey <public key>',
      "the runtime's public user nkey (default: a new key pair, its seed on stderr)",
    )
    .option('--helm', 'print Helm values for the NATS chart instead of nats-server configuration')
    .addHelpText(
      'after',
      `
The account goes to stdout; a new seed goes to stderr, shown this once: give it to the runtime
(EngramClient: connectOptions: { authenticator: nkeyAuthenticator(seed) }). Then reload nats-server.

Examples:
  $ engram nats-user --tenant acme >> deploy/nats/runtimes.conf
  $ engram nats-user --tenant acme --helm > nats-acme.values.yaml`,
    )
    .action((options: { tenant: string; nkey?: string; helm?: boolean }) => {
      const tenant = checkToken(options.tenant, '--tenant');
      const key = runtimeKey(options.nkey);
      process.stdout.write(
        options.helm
          ? renderRuntimeAccountValues(tenant, key.publicKey)
          : `# ${runtimeAccount(tenant)}: the agent runtimes of tenant ${tenant} (engram nats-user)\n${runtimeAccountBlock(tenant, key.publicKey)}`,
      );
      if (key.seed)
        console.error(
          `seed of ${key.publicKey}, shown this once (the runtime's NATS credential):\n${key.seed}`,
        );
    });
}
