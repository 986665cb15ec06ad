import { resolve } from 'node:path';
import { concurrently } from 'concurrently';
import { ConfigError, loadConfig, nodeOptionsFor } from '@engram/config';
import { migrateDatabase, setupDatabase } from '@engram/store';
import { waitUntilReady } from './readiness-probe';
import { portOf, selectServices } from './stack-services';

const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * `npm start`: prepares the database (roles, extensions, migrations), then runs
 * every service as its own process, each line of output prefixed with its name,
 * and says where to look once all are ready. Ctrl-C drains and stops them all.
 */
async function main(): Promise<void> {
  const config = loadConfig([
    'ENGRAM_PG_ADMIN_URL',
    'DATABASE_OWNER_URL',
    'DATABASE_URL',
    'NATS_URL',
    'ENGRAM_STACK_SERVICES',
    'ENGRAM_STACK_PORT_OFFSET',
  ]);
  const services = selectServices(config.ENGRAM_STACK_SERVICES);

  await setupDatabase({
    adminUrl: config.ENGRAM_PG_ADMIN_URL,
    ownerUrl: config.DATABASE_OWNER_URL,
    appUrl: config.DATABASE_URL,
  });
  const applied = await migrateDatabase(config.DATABASE_OWNER_URL);
  console.log(`stack: database ready${applied.length ? ` (applied ${applied.join(', ')})` : ''}`);

  const { result, commands } = concurrently(
    services.map((name) => ({
      name,
      command: `"${process.execPath}" services/${name}/dist/main.js`,
      cwd: REPO_ROOT,
      env: {
        HTTP_PORT: String(portOf(name, config.ENGRAM_STACK_PORT_OFFSET)),
        NODE_OPTIONS: nodeOptionsFor(name),
      },
    })),
    {
      prefix: 'name',
      prefixColors: ['cyan', 'green', 'yellow', 'blue', 'magenta', 'red', 'white', 'gray'],
      killOthersOn: ['failure'],
      killSignal: 'SIGTERM',
      handleInput: false,
    },
  );
  let stopped = false;
  const finished = result.finally(() => (stopped = true));

  const readiness = await Promise.all(
    services.map(async (name) => ({
      name,
      port: portOf(name, config.ENGRAM_STACK_PORT_OFFSET),
      ready: await waitUntilReady(portOf(name, config.ENGRAM_STACK_PORT_OFFSET), 60_000, () => stopped),
    })),
  );
  if (!stopped) {
    const lines = readiness.map(
      ({ name, port, ready }) =>
        `  ${name.padEnd(16)} http://127.0.0.1:${port}/health/ready  ${ready ? 'ready' : 'NOT READY (see its log lines)'}`,
    );
    console.log(
      [
        '',
        `Engram is ${readiness.every((r) => r.ready) ? 'running' : 'partly running'} on the built-in model (pids ${commands.map((c) => c.pid).join(', ')}):`,
        ...lines,
        `  NATS             ${config.NATS_URL}  (publish turns on mem.turn.{tenant}.{agent}; RPCs on mem.rpc.*.{tenant})`,
        `  Postgres         ${redact(config.DATABASE_URL)}`,
        '  Each service also serves /metrics (Prometheus) and /health/live. Logs: JSON lines, prefixed by service.',
        '  Ctrl-C stops everything after in-flight work drains.',
        '',
      ].join('\n'),
    );
  }
  await finished;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

main().catch((error: unknown) => {
  if (Array.isArray(error)) {
    // concurrently: the close events; a service that stopped with a failure stopped the stack.
    const failed = error.filter(
      (e: { exitCode?: number | string }) =>
        e.exitCode !== 0 && e.exitCode !== 'SIGTERM' && e.exitCode !== 'SIGINT',
    );
    if (failed.length === 0) process.exit(0);
    console.error(
      `stack: stopped because ${failed.map((e: { command: { name: string }; exitCode: unknown }) => `${e.command.name} exited with ${String(e.exitCode)}`).join(', ')}`,
    );
  } else {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `stack: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  process.exit(1);
});
