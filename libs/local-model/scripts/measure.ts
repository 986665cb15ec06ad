/**
 * Measures the built-in embedder: start-up (load) time, resident memory after load, and
 * texts/s for short texts (5–20 words) on one thread. Run it in a fresh process, pinned to one
 * core for a single-core figure:
 *
 *   npx nx run local-model:assets && npx tsc -p libs/local-model/scripts/tsconfig.json
 *   taskset -c 0 node libs/local-model/scripts/dist/scripts/measure.js [--path <model.bin>] [--count 100000] [--batch 64]
 *
 * Prints one JSON object.
 */
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { defaultModelPath, LocalEmbedder } from '../src/embedding/local-embedder';
import { measureThroughput } from '../src/embedding/throughput';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;

function main(): void {
  const path = arg('--path') ?? defaultModelPath();
  const count = Number(arg('--count') ?? 100_000);
  const batchSize = Number(arg('--batch') ?? 64);
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const embedder = LocalEmbedder.load(path);
  const loadMs = performance.now() - t0;
  const afterLoad = process.memoryUsage();
  const run = measureThroughput(embedder, { count, batchSize });
  const afterRun = process.memoryUsage();
  console.log(
    JSON.stringify(
      {
        modelId: embedder.modelId,
        path,
        fileMB: mb(statSync(path).size),
        loadMs: Math.round(loadMs * 10) / 10,
        rssBeforeLoadMB: mb(rssBefore),
        rssAfterLoadMB: mb(afterLoad.rss),
        heapUsedAfterLoadMB: mb(afterLoad.heapUsed),
        rssAfterRunMB: mb(afterRun.rss),
        throughput: {
          ...run,
          seconds: Math.round(run.seconds * 1000) / 1000,
          textsPerSecond: Math.round(run.textsPerSecond),
          wordsPerSecond: Math.round(run.wordsPerSecond),
        },
        node: process.version,
      },
      null,
      2,
    ),
  );
}

main();
