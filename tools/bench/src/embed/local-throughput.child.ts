/**
 * Runs in its own process (started by `local-throughput.ts`, pinned to one core with taskset
 * when it can be): loads the built-in embedder and measures texts/s on this one thread with
 * `measureThroughput` — short chat-like texts of 5–20 words (libs/local-model's `sampleTexts`,
 * as its measure script), and optionally the benchmark corpus's own messages. Prints one JSON
 * line: {@link LocalThroughputReport}.
 */
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { LocalEmbedder, measureThroughput, type ThroughputResult } from '@engram/local-model';

export interface PassReport extends ThroughputResult {
  /** CPU seconds (user + system) of this process during the timed part, over its wall time: < 1 means it was descheduled. */
  readonly cpuShare: number;
}

export interface LocalThroughputReport {
  readonly modelId: string;
  readonly dimensions: number;
  readonly loadMs: number;
  readonly short: PassReport;
  readonly corpus?: PassReport & { readonly meanWords: number };
  readonly node: string;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

function timed(run: () => ThroughputResult): PassReport {
  // measureThroughput warms up first; the CPU share is over the whole call (warm-up included), close enough.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = run();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { ...result, cpuShare: (cpu.user + cpu.system) / 1e6 / wall };
}

function main(): void {
  const count = Number(arg('--count', '100000'));
  const batchSize = Number(arg('--batch', '64'));
  const corpusFile = arg('--corpus-texts', '');
  const t0 = performance.now();
  const embedder = LocalEmbedder.load(process.env['GERTY_LOCAL_MODEL_PATH'] || undefined);
  const loadMs = performance.now() - t0;
  const short = timed(() =>
    measureThroughput(embedder, { count, batchSize, minWords: 5, maxWords: 20, warmup: 5_000 }),
  );
  let corpus: LocalThroughputReport['corpus'];
  if (corpusFile) {
    const texts = JSON.parse(readFileSync(corpusFile, 'utf8')) as string[];
    const pass = timed(() =>
      measureThroughput(embedder, { texts, batchSize, warmup: Math.min(5_000, texts.length) }),
    );
    corpus = { ...pass, meanWords: pass.words / pass.texts };
  }
  const report: LocalThroughputReport = {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    loadMs,
    short,
    ...(corpus && { corpus }),
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main();
