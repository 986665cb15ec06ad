import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

/** The built engram command run as a user runs it, in its own process: for the CLI's integration specs. */

const CLI = resolve(__dirname, '../../dist/main.js');

export interface EngramRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `engram ...args` against the NATS at natsUrl; answers its exit code and output. */
export function runEngram(natsUrl: string, args: readonly string[]): Promise<EngramRun> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, NATS_URL: natsUrl }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** Runs `engram ...args --json` and answers the JSON it printed; any other exit than 0 throws with its stderr. */
export async function engramJson(natsUrl: string, args: readonly string[]) {
  const run = await runEngram(natsUrl, [...args, '--json']);
  if (run.code !== 0) throw new Error(`engram ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
