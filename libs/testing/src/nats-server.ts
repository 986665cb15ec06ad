import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './free-port';

export interface NatsServerHandle {
  readonly url: string;
  readonly port: number;
  /** What nats-server logged (errors such as permissions violations included), across restarts. */
  output(): string;
  /** Stops the server (SIGTERM) and starts it again on the same port and store: JetStream recovers from disk. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const CANDIDATES = [
  process.env['NATS_SERVER_BIN'],
  '/usr/sbin/nats-server',
  '/usr/bin/nats-server',
  '/usr/local/bin/nats-server',
];

export function natsServerBinary(): string {
  for (const candidate of CANDIDATES) {
    if (candidate && spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  throw new Error('nats-server is not installed: run `npm run provision` (or set NATS_SERVER_BIN)');
}

export interface NatsServerOptions {
  /** A nats-server configuration file to read first (e.g. deploy/nats/engram.conf, its subject mappings). */
  readonly configFile?: string;
  /** Its environment beyond the test's (the passwords deploy/nats/engram-auth.conf refers to). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A private nats-server with JetStream for one test suite or benchmark: a real
 * server, isolated from every other run and from a running Engram.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServerHandle> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'engram-nats-'));
  const config = options.configFile ? ['-c', options.configFile] : [];
  const args = [...config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  const log = { text: '' };
  const env = { ...process.env, ...options.env };
  let server = await spawnServer(args, port, env, log);
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    output: () => log.text,
    async restart() {
      await server.stop();
      server = await spawnServer(args, port, env, log);
    },
    async stop() {
      await server.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** A running nats-server process. */
export interface NatsServerProcess {
  /** SIGTERM (a clean shutdown) or SIGKILL (a crash); SIGKILL anyway after 5 s. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/** One nats-server process, ready when its INFO line says JetStream is on; failing fast if it exits first. */
export async function spawnServer(
  args: string[],
  port: number,
  env: NodeJS.ProcessEnv = process.env,
  log: { text: string } = { text: '' },
): Promise<NatsServerProcess> {
  const child: ChildProcess = spawn(natsServerBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout?.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready = false;
  const died = exited.then(() => {
    if (!ready) throw new Error(`nats-server on ${port} exited before it was ready:\n${log.text}`);
  });
  await Promise.race([waitFor(`nats-server on ${port}`, () => infoShowsJetStream(port), 10_000, 50), died]);
  ready = true;
  return {
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      const forceAfter = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(forceAfter);
    },
  };
}

function infoShowsJetStream(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    let buffer = '';
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      if (buffer.includes('\n')) {
        socket.destroy();
        resolve(buffer.startsWith('INFO') && buffer.includes('"jetstream":true'));
      }
    });
    socket.on('error', () => resolve(false));
  });
}
