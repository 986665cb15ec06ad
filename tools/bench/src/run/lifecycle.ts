import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command, type OptionValues } from 'commander';
import { startService, type ServiceProcess } from '@engram/testing';

/**
 * Parses the command line and runs the bench: exit 0 when it finished; otherwise
 * "<bench> failed:" with the message (the stack, for errors not among `expected`,
 * whose messages say all there is) and exit 1.
 */
export function runBench<Flags extends OptionValues>(
  program: Command,
  main: (flags: Flags) => Promise<void>,
  expected: ReadonlyArray<abstract new (...args: never[]) => Error> = [],
): void {
  program
    .parseAsync(process.argv)
    .then(() => main(program.opts<Flags>()))
    .then(
      () => process.exit(0),
      (error: unknown) => {
        const known = expected.some((kind) => error instanceof kind);
        const told =
          error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error);
        console.error(`${program.name()} failed: ${told}`);
        process.exit(1);
      },
    );
}

/** A commander parser for an integer flag of at least `min`. */
export function integer(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`must be an integer ≥ ${min}`);
    return n;
  };
}

/** A commander parser for a number flag of at least `min`. */
export function decimal(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new InvalidArgumentError(`must be a number ≥ ${min}`);
    return n;
  };
}

/** Progress lines on stderr, prefixed with the benchmark's name (stdout is for the result). */
export function progressFor(benchmark: string): (text: string) => void {
  return (text) => process.stderr.write(`${benchmark}  ${text}\n`);
}

/**
 * What a run started (services, nats-server, databases, connections), undone newest first
 * when it ends, fails, is interrupted (Ctrl-C, SIGTERM) or hits an unhandled rejection.
 */
export class Cleanups {
  private readonly steps: Array<() => Promise<unknown>> = [];

  constructor(private readonly progress: (text: string) => void) {}

  add(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse())
      await step().catch((e: unknown) => this.progress(`cleanup failed: ${String(e)}`));
  }

  /** Cleans up, then exits, on SIGINT/SIGTERM and on an unhandled rejection. */
  installSignalHandlers(): this {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        this.progress(`${signal}: cleaning up`);
        void this.run().finally(() => process.exit(130));
      });
    }
    process.on('unhandledRejection', (error) => {
      this.progress(`unhandled: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      void this.run().finally(() => process.exit(1));
    });
    return this;
  }
}

/** SIGTERM (a graceful stop), SIGKILL after 20 s. */
export async function stopService(service: ServiceProcess): Promise<void> {
  service.kill('SIGTERM');
  const exited = await Promise.race([
    service.exited,
    new Promise((r) => setTimeout(() => r('timeout'), 20_000)),
  ]);
  if (exited === 'timeout') service.kill('SIGKILL');
}

/**
 * Starts a built service as its own process (as `startService` does), has the run stop it when
 * it is cleaned up, and waits until it reports ready.
 */
export async function startReadyService(
  cleanups: Cleanups,
  name: string,
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
): Promise<ServiceProcess> {
  const service = await startService(name, env);
  cleanups.add(() => stopService(service));
  await service.waitUntilReady(readyTimeoutMs);
  return service;
}

/**
 * What a service said about a durable consumer once it started pulling ("consuming STREAM/durable
 * (batches of 256, concurrency 4)" in its log): the parenthesised settings, or undefined until then.
 */
export function consumerSettings(service: ServiceProcess, durable: string): string | undefined {
  return new RegExp(`consuming [A-Z_]+/${durable} \\(([^)]*)\\)`).exec(service.output())?.[1];
}

/** The last `chars` of each service's output on stderr (after a failure). */
export function dumpServiceOutput(services: readonly ServiceProcess[], chars = 2000): void {
  for (const service of services)
    process.stderr.write(
      `--- ${service.name} output (last ${chars} chars) ---\n${service.output().slice(-chars)}\n`,
    );
}

/** A dataset file named on the command line (relative to where npm was called) and its SHA-256. */
export function datasetFile(path: string): { file: string; sha256: string } {
  // npm runs scripts from the repository's root; a relative --data is meant from where npm was called.
  const file = resolve(process.env['INIT_CWD'] ?? process.cwd(), path);
  return { file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
}
