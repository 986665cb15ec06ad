import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { ENGRAM_USERS, natsPasswordVariable, runtimeAccountBlock } from '@engram/contracts';

/** The authenticated configuration as `npm run docs:topology` generates it. */
export const NATS_AUTH_CONFIG_FILE = resolve(__dirname, '../../../deploy/nats/engram-auth.conf');

/**
 * deploy/nats/engram-auth.conf as generated, in a directory of its own beside a runtimes.conf with
 * an account for each tenant given (as `engram nats-user` writes them), with fresh passwords for
 * the users of ENGRAM and fresh nkeys for the runtimes.
 */
export interface NatsAuthentication {
  readonly configFile: string;
  /** nats-server's environment: ENGRAM_NATS_PASSWORD_<USER> of every user of ENGRAM. */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** NATS_USER and NATS_PASSWORD of a user of ENGRAM (a service, or `admin`). */
  credentials(user: string): { NATS_USER: string; NATS_PASSWORD: string };
  /** The nkey seed of the runtime user of a tenant given. */
  runtimeSeed(tenantId: string): Uint8Array;
  remove(): void;
}

export function prepareNatsAuthentication(runtimeTenants: readonly string[]): NatsAuthentication {
  const dir = mkdtempSync(join(tmpdir(), 'engram-nats-auth-'));
  const configFile = join(dir, 'engram-auth.conf');
  copyFileSync(NATS_AUTH_CONFIG_FILE, configFile);
  // As NATS_PASSWORD requires: nats-server parses the variable as a value of its configuration.
  const passwords = new Map(ENGRAM_USERS.map((user) => [user, `p${randomBytes(18).toString('hex')}`]));
  const seeds = new Map<string, Uint8Array>();
  const accounts = runtimeTenants.map((tenant) => {
    const pair = nkeys.createUser();
    seeds.set(tenant, pair.getSeed());
    return runtimeAccountBlock(tenant, pair.getPublicKey());
  });
  writeFileSync(join(dir, 'runtimes.conf'), accounts.join(''));
  return {
    configFile,
    serverEnv: Object.fromEntries([...passwords].map(([user, pw]) => [natsPasswordVariable(user), pw])),
    credentials(user) {
      const password = passwords.get(user);
      if (!password) throw new Error(`${user} is no user of the generated configuration`);
      return { NATS_USER: user, NATS_PASSWORD: password };
    },
    runtimeSeed(tenantId) {
      const seed = seeds.get(tenantId);
      if (!seed) throw new Error(`no runtime account was made for tenant ${tenantId}`);
      return seed;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
