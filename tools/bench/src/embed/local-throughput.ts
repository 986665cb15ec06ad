import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalThroughputReport } from './local-throughput.child';

export interface LocalThroughput extends LocalThroughputReport {
  /** How the child was pinned: "taskset -c 0", or why it was not. */
  readonly pinning: string;
  readonly pinned: boolean;
}

/** Whether `taskset -c <core>` can run a process here (present, and the affinity may be set). */
function tasksetWorks(core: number): boolean {
  const probe = spawnSync('taskset', ['-c', String(core), 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

/**
 * The built-in model's texts/s on one core: a fresh node process, pinned to `core` with
 * taskset when that works (otherwise unpinned, and the result says so), runs
 * `measureThroughput` on short texts and, if given, on the corpus's own texts.
 */
export async function measureLocalThroughput(options: {
  count: number;
  batchSize: number;
  core: number;
  corpusTexts?: readonly string[];
  /** Aborting it kills the child (Ctrl-C of the benchmark). */
  signal?: AbortSignal;
}): Promise<LocalThroughput> {
  const child = join(__dirname, 'local-throughput.child.js');
  const args = [child, '--count', String(options.count), '--batch', String(options.batchSize)];
  let dir: string | undefined;
  if (options.corpusTexts) {
    dir = mkdtempSync(join(tmpdir(), 'engram-bench-embed-'));
    const file = join(dir, 'texts.json');
    writeFileSync(file, JSON.stringify(options.corpusTexts));
    args.push('--corpus-texts', file);
  }
  const pinned = tasksetWorks(options.core);
  const [command, commandArgs] = pinned
    ? ['taskset', ['-c', String(options.core), process.execPath, ...args]]
    : [process.execPath, args];
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const proc = spawn(command, commandArgs as string[], {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(options.signal && { signal: options.signal }),
      });
      let out = '';
      let err = '';
      proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
      proc.once('error', reject);
      proc.once('exit', (code) =>
        code === 0
          ? resolve(out)
          : reject(new Error(`local throughput child exited ${code}: ${err.slice(-2000)}`)),
      );
    });
    const report = JSON.parse(output.trim().split('\n').pop()!) as LocalThroughputReport;
    return {
      ...report,
      pinned,
      pinning: pinned
        ? `taskset -c ${options.core}`
        : 'not pinned (taskset missing or not permitted): one thread, but the OS may move it between cores',
    };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
