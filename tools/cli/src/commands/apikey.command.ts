import { Command } from 'commander';
import { loadConfig } from '@engram/config';
import { isValidToken, Subjects } from '@engram/contracts';
import { ApiKeyStore, createDataSource, type ApiKeyInfo } from '@engram/store';
import { table } from './memory-tables';
import { connectCli } from './engram-rpc';

/** Runs `work` with an ApiKeyStore on DATABASE_URL (the app role, under row-level security). */
async function withKeys<T>(work: (keys: ApiKeyStore) => Promise<T>): Promise<T> {
  const dataSource = createDataSource(loadConfig(['DATABASE_URL']).DATABASE_URL, {
    poolSize: 1,
    applicationName: 'engram-cli',
  });
  await dataSource.initialize();
  try {
    return await work(new ApiKeyStore(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

/** Tells running api replicas to forget a revoked key now; best effort (their cache expires anyway). */
async function announceRevoked(keyId: string): Promise<boolean> {
  try {
    const nc = await connectCli(undefined, { timeout: 2000 });
    nc.publish(Subjects.apiKeyRevoked, keyId);
    await nc.drain();
    return true;
  } catch {
    return false;
  }
}

function tenantOption(tenant: string): string {
  if (!isValidToken(tenant))
    throw new Error(`--tenant must be 1-64 letters, digits, "_" or "-" (got ${tenant})`);
  return tenant;
}

const iso = (at: Date | null) => (at ? at.toISOString() : '');

function keysTable(keys: readonly ApiKeyInfo[]): string {
  const rows = table(['id', 'name', 'prefix', 'created', 'last used', 'revoked']);
  for (const k of keys)
    rows.push([k.id, k.name, `${k.prefix}…`, iso(k.createdAt), iso(k.lastUsedAt), iso(k.revokedAt)]);
  return rows.toString();
}

export function apikeyCommand(): Command {
  const apikey = new Command('apikey').description(
    'API keys for the HTTP API, the MCP endpoint and the mem0-compatible routes (a key decides the tenant)',
  );
  apikey
    .command('create')
    .description(
      'make a key for a tenant; the key is printed once, as the last line, and stored only as a hash',
    )
    .requiredOption('--tenant <tenant>', 'the tenant the key acts for')
    .option('--name <name>', 'what the key is for, shown in lists', '')
    .option('--json', 'the key and its id as one JSON object')
    .addHelpText(
      'after',
      `
Example:
  $ KEY=$(npm run -s engram -- apikey create --tenant acme --name ci | tail -1)
  $ curl -H "Authorization: Bearer $KEY" http://127.0.0.1:8080/v1/stats/get -d '{}'`,
    )
    .action(async (options: { tenant: string; name: string; json?: boolean }) => {
      const made = await withKeys((keys) => keys.create(tenantOption(options.tenant), options.name));
      if (options.json) {
        console.log(JSON.stringify({ id: made.id, tenant: made.tenantId, name: made.name, key: made.key }));
        return;
      }
      console.log(`key ${made.id} for tenant ${made.tenantId}${made.name ? ` (${made.name})` : ''}`);
      console.log('shown this once: keep it now (Authorization: Bearer <key>)');
      console.log(made.key);
    });
  apikey
    .command('list')
    .description("a tenant's keys (never the keys themselves): id, name, prefix, created, last used, revoked")
    .requiredOption('--tenant <tenant>', 'the tenant')
    .option('--json', 'the keys as a JSON array')
    .addHelpText('after', '\nExample:\n  $ npm run -s engram -- apikey list --tenant acme')
    .action(async (options: { tenant: string; json?: boolean }) => {
      const keys = await withKeys((store) => store.list(tenantOption(options.tenant)));
      if (options.json) console.log(JSON.stringify(keys));
      else if (keys.length === 0) console.log(`tenant ${options.tenant} has no API keys`);
      else console.log(keysTable(keys));
    });
  apikey
    .command('revoke')
    .description('revoke a key by its id: requests with it are refused (401) from now on')
    .argument('<keyId>', 'the key id (key_…), as `apikey list` shows it')
    .option('--json', 'the outcome as JSON')
    .addHelpText('after', '\nExample:\n  $ npm run -s engram -- apikey revoke key_3fQ9x1LmZp0a')
    .action(async (keyId: string, options: { json?: boolean }) => {
      const revoked = await withKeys((keys) => keys.revoke(keyId));
      if (!revoked) throw new Error(`no API key ${keyId}`);
      const announced = await announceRevoked(keyId);
      if (options.json) {
        console.log(JSON.stringify({ id: keyId, tenant: revoked.tenantId, revokedAt: revoked.revokedAt }));
        return;
      }
      console.log(`revoked ${keyId} (tenant ${revoked.tenantId}) at ${revoked.revokedAt.toISOString()}`);
      if (!announced)
        console.log('NATS was not reachable: running api replicas refuse the key once their cache expires');
    });
  return apikey;
}
