import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ContentDistribution } from '../corpus/content-lengths';
import type { ProfileSummary } from '../profile/cpu-profile-summary';
import type { WaitEventProfile } from '../measure/wait-event-sampler';
import { renderColumns } from './columns';
import type { MachineDescription } from './machine';

export const TARGETS = { messagesPerSecond: 5000, ratio: 0.3 } as const;

/** Everything one `npm run bench:ingest` measured, as written to bench-results/ingest.json. */
export interface IngestBenchResult {
  readonly benchmark: 'ingest';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly corpus: {
    readonly seed: number;
    /** The message-length distribution (`--content`): short (chat) or long (LongMemEval-like). */
    readonly content: ContentDistribution;
    readonly turns: number;
    readonly messages: number;
    readonly tenants: number;
    readonly agentsPerTenant: number;
    readonly conversations: number;
    readonly toolTurns: number;
    readonly taggedTurns: number;
    readonly meanTurnBytes: number;
    readonly meanContentChars: number;
    readonly warmupTurns: number;
  };
  readonly settings: {
    readonly publishWindow: number;
    readonly batchSize: string;
    readonly concurrency: string;
    readonly lingerMs: string;
    readonly poolSize: string;
    readonly logLevel: string;
  };
  readonly ingest: {
    /** First publish to the moment every message row was committed. */
    readonly seconds: number;
    readonly messagesPerSecond: number;
    /** The message rows' bytes (as COPY text, the same bytes COPY loads) per second. */
    readonly megabytesPerSecond: number;
    readonly turnsPerSecond: number;
    /** Between 10 % and 90 % of the rows. */
    readonly steadyMessagesPerSecond: number;
    /** While ingest was running: first publish to the last publish acknowledged by JetStream. */
    readonly publishSeconds: number;
    /** First publish to the moment the consumer had acknowledged every turn (after commit + stored events). */
    readonly ackedSeconds: number;
    readonly batches: number;
    readonly meanBatchTurns: number;
    readonly meanBatchMs: number;
    /**
     * CPU seconds per process group between the first publish and the last row ("other": the rest
     * of the machine, e.g. someone else's build), and the benchmark's processes' sum over the wall
     * time (cores busy).
     */
    readonly cpuSeconds: Record<string, number>;
    readonly coresBusy: number;
    /** What ingest's Postgres connections were doing, sampled from pg_stat_activity. */
    readonly postgresActivity: WaitEventProfile;
    /** Time Postgres spent on the benchmark's count(*) polls during the measurement. */
    readonly probeSeconds: number;
  };
  readonly publishOnly: {
    /** The same turns to a stream without consumers, nothing else running: the NATS ceiling. */
    readonly seconds: number;
    readonly turnsPerSecond: number;
    readonly messagesPerSecond: number;
    readonly megabytesPerSecond: number;
  };
  readonly copy: {
    readonly rows: number;
    readonly seconds: number;
    readonly rowsPerSecond: number;
    readonly megabytes: number;
    readonly megabytesPerSecond: number;
    /** CPU seconds of the COPY's backend (compare with ingest's cpuSeconds.postgres: same rows). */
    readonly cpuSeconds: number;
  };
  readonly ratio: number;
  readonly targets: typeof TARGETS & { readonly met: boolean };
  readonly checks: {
    readonly messageRows: number;
    readonly expectedRows: number;
    readonly conversations: number;
    readonly deadLetters: number;
    readonly storedEvents: number;
    readonly duplicatePublishes: number;
    readonly facts: number;
    /** Conversations whose message_count differs from their rows: must be 0. */
    readonly conversationsWithWrongCounters: number;
    /** Turns published again under new Nats-Msg-Ids after the run (as a redelivery): they must add nothing. */
    readonly redeliveredTurns: number;
    readonly redeliveryAddedRows: number;
    readonly redeliveryAddedFacts: number;
    readonly redeliveryAddedStoredEvents: number;
  };
  readonly profile?: ProfileSummary;
}

/** The headline: what `--json` prints as the last line of stdout. */
export function headline(result: IngestBenchResult): {
  content: ContentDistribution;
  messagesPerSecond: number;
  megabytesPerSecond: number;
  copyRowsPerSecond: number;
  ratio: number;
} {
  return {
    content: result.corpus.content,
    messagesPerSecond: Math.round(result.ingest.messagesPerSecond),
    megabytesPerSecond: Math.round(result.ingest.megabytesPerSecond * 100) / 100,
    copyRowsPerSecond: Math.round(result.copy.rowsPerSecond),
    ratio: Math.round(result.ratio * 1000) / 1000,
  };
}

/** The commit a result was measured at, and whether the code matched it. */
export interface CommitStamp {
  /** `git rev-parse --short=12 HEAD`; null outside a git checkout. */
  readonly commit: string | null;
  /**
   * True when no tracked file differed from that commit (bench-results/ aside: a run that only
   * updates earlier results is still the commit's code); false when one did; null outside git.
   */
  readonly clean: boolean | null;
}

/** Runs git with these arguments and answers its trimmed stdout; throws when git fails. */
export type GitRunner = (...args: string[]) => string;

/** Stamps a result with the checkout `git` runs in: its commit and whether the tree was clean. */
export function commitStamp(git: GitRunner): CommitStamp {
  try {
    const commit = git('rev-parse', '--short=12', 'HEAD');
    const changes = git(
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--',
      ':/',
      ':(top,exclude)bench-results',
    );
    return { commit, clean: changes === '' };
  } catch {
    return { commit: null, clean: null };
  }
}

/**
 * Writes a bench's full result as pretty JSON, stamped first with the commit it ran at and
 * whether the tree was clean (`commitStamp`), so a figure can be traced to its code. Every
 * bench writes its result here.
 */
export function writeResult(file: string, result: object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...commitStamp(runGit), ...result }, null, 2)}\n`);
}

const runGit: GitRunner = (...args) =>
  execFileSync('git', args, {
    cwd: __dirname,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const s2 = (x: number) => `${x.toFixed(2)} s`;

/** A readable table of the figures (and of the profile, when there is one). */
export function renderTable(r: IngestBenchResult): string {
  const c = r.corpus;
  const i = r.ingest;
  const rows: Array<[string, string, string]> = [
    [
      'corpus',
      `${n0(c.turns)} turns, ${n0(c.messages)} messages`,
      `${c.content} content (${n0(c.meanContentChars)} characters a message), ${c.tenants} tenants, ${c.conversations} conversations, ${n0(c.toolTurns)} tool turns, ${n0(c.taggedTurns)} tagged; ~${n0(c.meanTurnBytes)} B/turn`,
    ],
    [
      'settings',
      `batch ${r.settings.batchSize}, concurrency ${r.settings.concurrency}`,
      `linger ${r.settings.lingerMs}, pool ${r.settings.poolSize}, publish window ${r.settings.publishWindow}`,
    ],
    ['', '', ''],
    [
      'ingest: publish → durable',
      `${n0(i.messagesPerSecond)} messages/s`,
      `${i.megabytesPerSecond.toFixed(1)} MB/s, ${n0(i.turnsPerSecond)} turns/s, ${s2(i.seconds)} for everything`,
    ],
    ['  steady state (10–90 %)', `${n0(i.steadyMessagesPerSecond)} messages/s`, ''],
    [
      '  publishing (during ingest)',
      s2(i.publishSeconds),
      `${n0(c.turns / i.publishSeconds)} turns/s accepted by JetStream`,
    ],
    [
      '  all acknowledged',
      s2(i.ackedSeconds),
      `${n0(i.batches)} batches, ${i.meanBatchTurns.toFixed(0)} turns and ${i.meanBatchMs.toFixed(0)} ms each`,
    ],
    ['  count(*) polls', s2(i.probeSeconds), 'of Postgres time spent measuring'],
    [
      '  CPU (s) during ingest',
      Object.entries(i.cpuSeconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', '),
      `${i.coresBusy.toFixed(2)} of ${r.machine.cores} cores busy`,
    ],
    [
      '  Postgres connections',
      `${i.postgresActivity.meanBusyConnections.toFixed(2)} busy on average`,
      i.postgresActivity.events
        .slice(0, 5)
        .map((e) => `${e.what} ${(e.share * 100).toFixed(0)} %`)
        .join(', '),
    ],
    [
      'publish only (NATS ceiling)',
      `${n0(r.publishOnly.turnsPerSecond)} turns/s`,
      `${n0(r.publishOnly.messagesPerSecond)} messages/s, ${r.publishOnly.megabytesPerSecond.toFixed(1)} MB/s, ${s2(r.publishOnly.seconds)}`,
    ],
    [
      'COPY (Postgres ceiling)',
      `${n0(r.copy.rowsPerSecond)} rows/s`,
      `${r.copy.megabytesPerSecond.toFixed(1)} MB/s: ${n0(r.copy.rows)} rows, ${r.copy.megabytes.toFixed(1)} MB in ${s2(r.copy.seconds)}, backend CPU ${s2(r.copy.cpuSeconds)}`,
    ],
    ['ratio ingest / COPY', r.ratio.toFixed(3), ''],
    ['', '', ''],
    [
      'targets',
      `≥ ${n0(TARGETS.messagesPerSecond)} messages/s, ratio ≥ ${TARGETS.ratio}`,
      r.targets.met ? 'met' : 'MISSED',
    ],
    [
      'checks',
      `${n0(r.checks.messageRows)}/${n0(r.checks.expectedRows)} rows`,
      `${r.checks.deadLetters} dead letters, ${n0(r.checks.storedEvents)} stored events, ${n0(r.checks.facts)} facts, ` +
        `${r.checks.conversationsWithWrongCounters} wrong counters; ${n0(r.checks.redeliveredTurns)} turns redelivered added ` +
        `${r.checks.redeliveryAddedRows} rows, ${r.checks.redeliveryAddedFacts} facts, ${r.checks.redeliveryAddedStoredEvents} events`,
    ],
    [
      'machine',
      `${r.machine.cores} × ${r.machine.cpu}`,
      `${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, node ${r.machine.node}, load ${r.machine.loadAverageAtStart} at start`,
    ],
  ];
  const lines = [renderColumns(rows)];
  if (r.profile) {
    lines.push(
      '',
      `ingest CPU profile (${n0(r.profile.totalMs)} ms sampled; ${r.profile.file})`,
      '  self time by origin:',
    );
    for (const e of r.profile.byOrigin)
      lines.push(`    ${(e.share * 100).toFixed(1).padStart(5)} %  ${e.name}`);
    lines.push('  top functions (self time):');
    for (const e of r.profile.topFunctions)
      lines.push(`    ${(e.share * 100).toFixed(1).padStart(5)} %  ${e.name}`);
  }
  return lines.join('\n');
}
