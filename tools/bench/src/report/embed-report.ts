import type { LocalThroughput } from '../embed/local-throughput';
import type { ServiceActivity } from '../measure/activity-by-service';
import type { LatencySlice, LatencySummary } from '../measure/latency-stats';
import { renderColumns } from './columns';
import type { MachineDescription } from './machine';

export const EMBED_TARGETS = { localTextsPerSecondPerCore: 20_000, lagP95Ms: 2_000 } as const;

/** Everything one `npm run bench:embed` measured, as written to bench-results/embed.json. */
export interface EmbedBenchResult {
  readonly benchmark: 'embed';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  /** The built-in model alone, one thread in its own process, pinned to one core when possible. */
  readonly local: LocalThroughput | null;
  readonly settings: {
    readonly messagesPerSecond: number;
    readonly seconds: number;
    readonly warmupSeconds: number;
    readonly tickMs: number;
    readonly publishWindow: number;
    /** The variables each service was started with beyond NATS_URL/DATABASE_URL (unset: the service's default). */
    readonly env: Record<string, Record<string, string>>;
    /** What the services said they run with (from their start-up logs). */
    readonly consumers: Record<string, string>;
    /** The vector index: "as migrated" unless a what-if (--message-index) changed it. */
    readonly messageIndex: string;
    readonly logLevel: string;
  };
  readonly corpus: {
    readonly seed: number;
    readonly tenants: number;
    readonly conversations: number;
    readonly toolTurnShare: number;
    readonly turns: number;
    readonly messages: number;
    /** Messages with content of their own (embedded straight away). */
    readonly messagesWithContent: number;
    /** Tool calls and results stored without content: described by Gerty first, then embedded. */
    readonly toolCallsToDescribe: number;
    readonly meanContentChars: number;
    readonly warmupTurns: number;
    readonly warmupMessages: number;
  };
  readonly publishing: {
    /** Messages (and turns) sent during the measured window ÷ its duration. */
    readonly messagesPerSecond: number;
    readonly turnsPerSecond: number;
    readonly seconds: number;
    readonly maxBehindMessages: number;
    readonly maxTickGapMs: number;
    readonly windowFullTicks: number;
    readonly sustained: boolean;
    /** Publish → JetStream's acknowledgement (stored in the TURNS stream). */
    readonly publishAck: LatencySummary;
  };
  readonly lag: {
    /** embedded_at − ingested_at of every message with its own content published in the window: the headline. */
    readonly storedToVector: LatencySummary;
    /** ingested_at − the time the turn was published (both on this machine's clock; every message). */
    readonly publishToStored: LatencySummary;
    /** embedded_at − the time the turn was published (messages with their own content). */
    readonly publishToVector: LatencySummary;
    /** Tool calls stored without content: embedded_at − ingested_at, description included. */
    readonly describedToolCalls: LatencySummary;
    /** storedToVector by the second the turn was published: flat if the rate was sustained. */
    readonly timeline: readonly LatencySlice[];
    /** Least-squares slope of the lag over the publish time: ms of lag added per second of publishing (0 when embedding keeps up). */
    readonly trendMsPerSecond: number;
    /** The slope is below 25 ms/s (1.5 s over a minute): no backlog built up. */
    readonly keptUp: boolean;
    /** The last vector (of a message with its own content) was written this long after the window's last publish. */
    readonly drainMs: number;
  };
  /** Messages each stage got through per second during the window: publishing, storing (ingested_at), embedding (embedded_at). */
  readonly throughput: {
    readonly publishedPerSecond: number;
    readonly storedPerSecond: number;
    readonly embeddedPerSecond: number;
  };
  readonly pipeline: {
    readonly ingest: {
      readonly batches: number;
      readonly meanBatchTurns: number;
      readonly meanBatchMs: number;
    };
    readonly embedder: {
      readonly batches: number;
      readonly meanBatchEvents: number;
      readonly meanBatchMs: number;
      readonly retries: number;
      readonly toolCallsDescribed: number;
    };
    readonly gerty: {
      readonly embedCalls: number;
      readonly meanEmbedMs: number;
      readonly textsEmbedded: number;
      readonly meanTextsPerCall: number;
      readonly completeCalls: number;
      readonly meanCompleteMs: number;
    };
    /** What each service's Postgres connections were doing during the window (pg_stat_activity every 100 ms). */
    readonly postgres: Record<string, ServiceActivity>;
    /** Pending + unacknowledged events of the consumers, sampled every second of the window. */
    readonly backlog: {
      readonly maxIngest: number;
      readonly maxEmbedder: number;
      readonly samples: ReadonlyArray<{
        readonly atS: number;
        readonly ingest: number;
        readonly embedder: number;
      }>;
    };
  };
  /** CPU seconds per process group over the measured window, and in cores (CPU s ÷ wall s). */
  readonly cpu: {
    readonly seconds: Record<string, number>;
    readonly cores: Record<string, number>;
    readonly wallSeconds: number;
  };
  readonly targets: typeof EMBED_TARGETS & { readonly localMet: boolean | null; readonly lagMet: boolean };
  readonly checks: {
    readonly expectedRows: number;
    readonly rows: number;
    readonly withVector: number;
    readonly withoutVector: number;
    readonly deadLetters: number;
    readonly duplicatePublishes: number;
    /** Rows the embedder's periodic sweep embedded (the event path should have done all of them: 0). */
    readonly sweepEmbedded: number;
    readonly passed: boolean;
  };
}

/** The headline: what `--json` prints as the last line of stdout. */
export function embedHeadline(result: EmbedBenchResult): {
  localTextsPerSecondPerCore: number | null;
  lagP95Ms: number;
} {
  return {
    localTextsPerSecondPerCore: result.local ? Math.round(result.local.short.textsPerSecond) : null,
    lagP95Ms: Math.round(result.lag.storedToVector.p95Ms),
  };
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${n0(x)} ms`;
const pct = (s: LatencySummary) =>
  s.count === 0 ? 'none' : `p50 ${ms(s.p50Ms)}, p95 ${ms(s.p95Ms)}, p99 ${ms(s.p99Ms)}, max ${ms(s.maxMs)}`;

/** A readable table of the figures. */
export function renderEmbedTable(r: EmbedBenchResult): string {
  const c = r.corpus;
  const p = r.publishing;
  const g = r.pipeline;
  const rows: Array<[string, string, string]> = [];
  if (r.local) {
    const l = r.local;
    rows.push(
      [
        'local model, one core',
        `${n0(l.short.textsPerSecond)} texts/s`,
        `${n0(l.short.wordsPerSecond)} words/s; ${n0(l.short.texts)} texts of 5–20 words in batches of ${l.short.batchSize}`,
      ],
      [
        '  pinning',
        l.pinning,
        `CPU share ${(l.short.cpuShare * 100).toFixed(0)} % of wall (below 100 %: descheduled by other work); ${l.modelId}, loaded in ${ms(l.loadMs)}`,
      ],
    );
    if (l.corpus) {
      rows.push([
        '  corpus messages',
        `${n0(l.corpus.textsPerSecond)} texts/s`,
        `${n0(l.corpus.wordsPerSecond)} words/s; ${n0(l.corpus.texts)} of this run's messages, ${l.corpus.meanWords.toFixed(0)} words on average`,
      ]);
    }
  } else {
    rows.push(['local model, one core', 'not measured (--no-local)', '']);
  }
  rows.push(
    ['', '', ''],
    [
      'corpus',
      `${n0(c.turns)} turns, ${n0(c.messages)} messages`,
      `${c.tenants} tenants, ${c.conversations} conversations, ${n0(c.toolCallsToDescribe)} tool calls without content, ~${n0(c.meanContentChars)} chars/message; warm-up ${n0(c.warmupMessages)} messages`,
    ],
    [
      'settings',
      `${n0(r.settings.messagesPerSecond)} messages/s for ${r.settings.seconds} s`,
      `after ${r.settings.warmupSeconds} s of warm-up; a slice every ${r.settings.tickMs} ms; ${Object.entries(
        r.settings.consumers,
      )
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}`,
    ],
    [
      '  vector index',
      r.settings.messageIndex,
      r.settings.messageIndex === 'as migrated'
        ? ''
        : 'EXPERIMENT (--message-index): not what the migrations create',
    ],
    [
      '  env',
      '',
      Object.entries(r.settings.env)
        .map(
          ([svc, vars]) =>
            `${svc} ${
              Object.entries(vars)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ') || '(defaults)'
            }`,
        )
        .join('; '),
    ],
    [
      'publishing (achieved)',
      `${n0(p.messagesPerSecond)} messages/s`,
      `${n0(p.turnsPerSecond)} turns/s over ${p.seconds.toFixed(1)} s; ${p.sustained ? 'sustained' : 'NOT sustained'} (most behind ${n0(p.maxBehindMessages)} messages, longest tick gap ${ms(p.maxTickGapMs)}, window full ${p.windowFullTicks}×); JetStream ack ${pct(p.publishAck)}`,
    ],
    ['', '', ''],
    [
      'lag stored → vector',
      `p95 ${ms(r.lag.storedToVector.p95Ms)}`,
      `${pct(r.lag.storedToVector)} (${n0(r.lag.storedToVector.count)} messages; embedded_at − ingested_at)`,
    ],
    ['  publish → stored', `p95 ${ms(r.lag.publishToStored.p95Ms)}`, pct(r.lag.publishToStored)],
    ['  publish → vector', `p95 ${ms(r.lag.publishToVector.p95Ms)}`, pct(r.lag.publishToVector)],
    [
      '  tool calls described first',
      r.lag.describedToolCalls.count ? `p95 ${ms(r.lag.describedToolCalls.p95Ms)}` : 'none',
      `${pct(r.lag.describedToolCalls)} (${n0(r.lag.describedToolCalls.count)}; stored → described → vector)`,
    ],
    [
      '  over the window (p95)',
      r.lag.timeline.map((s) => n0(s.p95Ms)).join(' '),
      `ms, per ${r.lag.timeline[0] ? r.lag.timeline[0].toS - r.lag.timeline[0].fromS : 0} s of publishing: ${r.lag.keptUp ? 'embedding kept up' : 'a backlog BUILT UP (embedding did not keep up)'} (lag trend ${r.lag.trendMsPerSecond >= 0 ? '+' : ''}${r.lag.trendMsPerSecond.toFixed(0)} ms/s); last vector ${ms(r.lag.drainMs)} after the last publish`,
    ],
    ['', '', ''],
    [
      'throughput in the window',
      `published ${n0(r.throughput.publishedPerSecond)}/s`,
      `stored ${n0(r.throughput.storedPerSecond)}/s, embedded ${n0(r.throughput.embeddedPerSecond)}/s (messages)`,
    ],
    [
      'ingest',
      `${n0(g.ingest.batches)} batches`,
      `${g.ingest.meanBatchTurns.toFixed(1)} turns, ${g.ingest.meanBatchMs.toFixed(0)} ms each`,
    ],
    [
      'embedder',
      `${n0(g.embedder.batches)} batches`,
      `${g.embedder.meanBatchEvents.toFixed(1)} events (turns), ${g.embedder.meanBatchMs.toFixed(0)} ms each; ${g.embedder.retries} retries; ${n0(g.embedder.toolCallsDescribed)} tool calls described`,
    ],
    [
      'gerty',
      `${n0(g.gerty.embedCalls)} embed calls`,
      `${g.gerty.meanTextsPerCall.toFixed(1)} texts, ${g.gerty.meanEmbedMs.toFixed(1)} ms each (queue included); ${n0(g.gerty.completeCalls)} complete calls, ${g.gerty.meanCompleteMs.toFixed(1)} ms each`,
    ],
    [
      'backlog (max)',
      `ingest ${n0(g.backlog.maxIngest)}, embedder ${n0(g.backlog.maxEmbedder)}`,
      'pending + unacknowledged, sampled every second',
    ],
    ...Object.entries(g.postgres)
      .filter(([service]) => service === 'ingest' || service === 'embedder')
      .map(([service, a]): [string, string, string] => [
        `  Postgres, ${service}`,
        `${a.meanBusyConnections.toFixed(2)} connections busy`,
        a.top
          .slice(0, 4)
          .map((t) => `${t.what} ${(t.share * 100).toFixed(0)} %`)
          .join(', '),
      ]),
    [
      'CPU in the window',
      `${Object.values(r.cpu.cores)
        .reduce((a, b) => a + b, 0)
        .toFixed(2)} of ${r.machine.cores} cores busy, other work included`,
      `${Object.entries(r.cpu.cores)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')} (cores, over ${r.cpu.wallSeconds.toFixed(1)} s)`,
    ],
    ['', '', ''],
    [
      'targets',
      `≥ ${n0(EMBED_TARGETS.localTextsPerSecondPerCore)} texts/s/core, p95 < ${n0(EMBED_TARGETS.lagP95Ms)} ms`,
      `${r.targets.localMet === null ? 'texts/s not measured' : r.targets.localMet ? 'texts/s met' : 'texts/s MISSED'}, ${r.targets.lagMet ? 'lag met' : 'lag MISSED'}`,
    ],
    [
      'checks',
      `${n0(r.checks.withVector)}/${n0(r.checks.expectedRows)} with a vector`,
      `${n0(r.checks.rows)} rows, ${r.checks.withoutVector} without, ${r.checks.deadLetters} dead letters, ${r.checks.duplicatePublishes} duplicate publishes, ${r.checks.sweepEmbedded} embedded by the sweep: ${r.checks.passed ? 'passed' : 'FAILED'}`,
    ],
    [
      'machine',
      `${r.machine.cores} × ${r.machine.cpu}`,
      `${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, node ${r.machine.node}, load ${r.machine.loadAverageAtStart} at start`,
    ],
  );
  return renderColumns(rows);
}
