import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { nodeOptionsFor } from '@engram/config';
import { freePort, waitFor } from './free-port';

const REPO_ROOT = resolve(__dirname, '../../..');

export interface ServiceProcess {
  readonly name: string;
  readonly httpPort: number;
  readonly pid: number;
  /** Everything the process printed (JSON log lines). */
  output(): string;
  waitUntilReady(timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or signal) once the process ended. */
  readonly exited: Promise<number | NodeJS.Signals>;
  kill(signal?: NodeJS.Signals): void;
}

/** The last `max` non-empty lines of what a process printed (its log, one JSON line each). */
export function lastLines(output: string, max: number): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-max);
}

/** Runs a built service (services/<name>/dist/main.js) as its own process, as in production. */
export async function startService(name: string, env: Record<string, string>): Promise<ServiceProcess> {
  const httpPort = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [resolve(REPO_ROOT, 'services', name, 'dist', 'main.js')],
    {
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        ...env,
        NODE_OPTIONS: nodeOptionsFor(name, env['NODE_OPTIONS']),
        HTTP_PORT: String(httpPort),
        HTTP_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code ?? 0)),
  );
  return {
    name,
    httpPort,
    pid: child.pid!,
    output: () => output,
    exited,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    async waitUntilReady(timeoutMs = 30_000) {
      const ready = waitFor(
        `${name} ready on :${httpPort}`,
        async () => (await fetch(`http://127.0.0.1:${httpPort}/health/ready`)).status === 200,
        timeoutMs,
      );
      const died = exited.then((how) =>
        Promise.reject(new Error(`${name} exited (${how}) before it was ready`)),
      );
      await Promise.race([ready, died]).catch((error: Error) => {
        throw new Error(`${error.message}\n--- ${name} output ---\n${output.slice(-4000)}`);
      });
    },
  };
}
