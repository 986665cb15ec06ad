#!/usr/bin/env node
/**
 * `npm run bench:patrol [-- --json]`: one being of 10,000 scene nodes through 40 mechanical
 * patrols (built-in model: ❶ ❷ ❸ ❺ ❼ run, ❹ ❻ diary and think are skipped), with recalls
 * between them, through the real pipeline: a private nats-server, a migrated scratch
 * database, gerty and patrol as their own processes.
 *
 * The nodes are seeded as a being's store holds them after its scene notes were turned into
 * nodes: each scene embedded by Gerty's model, importance spread over 0.05–1 (so that many fade
 * within 40 patrols), spread over 30 sub-clusters; the least important (under 0.06, about a fifth)
 * are dead, as an earlier patrol's consolidation let them go (decay alone kills nothing), so
 * that recalls revive some. Each cycle is one mem.rpc.patrol.run, timed
 * end to end; between cycles, `--recalls` mem.rpc.being.recall requests with a message that
 * resembles some scenes, each timed end to end (embedding the message included).
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { connect } from '@nats-io/transport-node';
import { Rpcs } from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import { createMigratedDatabase, startNatsServer, type ServiceProcess } from '@engram/testing';
import { SeededRandom } from './corpus/seeded-random';
import { summarizeLatencies, type LatencySummary } from './measure/latency-stats';
import { writeResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import {
  Cleanups,
  dumpServiceOutput,
  integer,
  progressFor,
  runBench,
  startReadyService,
} from './run/lifecycle';
import { SHELL_TENANT } from './search/measure-search';

const REPO_ROOT = resolve(__dirname, '../../..');
const TENANT = 'bench';
const AGENT = 'being';
const SUB_CLUSTERS = 30;
/** Texts per embed request: their vectors fit a NATS message. */
const EMBED_BATCH = 256;
/** A recall's p95 at most twice the shell's (absolute figures move with the machine; this ratio is from one run). */
export const PATROL_TARGETS = { cycleP95Ms: 2000, recallP95Ms: 20, recallShellRatio: 2 } as const;

const PEOPLE = ['Mia', 'Ben', 'my sister', 'Grandma', 'Leo', 'the neighbour', 'my boss', 'Sara'];
const ACTIONS = [
  'baked bread',
  'walked by the river',
  'argued about the budget',
  'watched the rain',
  'planned the trip to Lisbon',
  'fixed the bicycle',
  'sang in the car',
  'finished the quarterly report',
  'cooked soup',
  'read poems aloud',
  'planted tomatoes',
  'lost the keys',
];
const PLACES = ['in the kitchen', 'at the office', 'in the park', 'on the train', 'at the beach', 'at home'];
const FEELINGS = ['warm', 'tired', 'proud', 'anxious', 'calm', 'silly', 'grateful', 'sad'];

interface Flags {
  nodes: number;
  cycles: number;
  recalls: number;
  seed: number;
  logLevel: string;
  json: boolean;
  out: string;
}

export interface PatrolBenchResult {
  readonly benchmark: 'patrol';
  readonly finishedAt: string;
  readonly machine: unknown;
  readonly settings: { nodes: number; cycles: number; recallsPerCycle: number; seed: number; model: string };
  readonly cycle: LatencySummary;
  readonly recall: LatencySummary;
  /** THE SHELL: the same recall for a tenant that does not exist, right after each (what any recall costs before it reads a node). */
  readonly recallShell: LatencySummary;
  /** Gerty's share of a recall: one message embedded, asked of Gerty directly. */
  readonly embed: LatencySummary;
  readonly recalledPerRequest: number;
  readonly statuses: Record<string, number>;
  readonly dead: number;
  readonly revived: number;
  readonly targets: typeof PATROL_TARGETS;
}

/** The JSON line `--json` prints last. */
export function patrolHeadline(r: PatrolBenchResult) {
  return {
    nodes: r.settings.nodes,
    cycles: r.settings.cycles,
    cycleP95Ms: r.cycle.p95Ms,
    dead: r.dead,
    revived: r.revived,
    recallP95Ms: r.recall.p95Ms,
    recallShellP95Ms: r.recallShell.p95Ms,
  };
}

const progress = progressFor('bench:patrol');
const cleanups = new Cleanups(progress).installSignalHandlers();

async function main(flags: Flags): Promise<void> {
  const random = new SeededRandom(flags.seed);
  const services: ServiceProcess[] = [];
  try {
    const nats = await startNatsServer();
    cleanups.add(() => nats.stop());
    const db = await createMigratedDatabase('patrol');
    cleanups.add(() => db.drop());
    const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-patrol' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);
    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: db.appUrl,
      LOG_LEVEL: flags.logLevel,
      PATROL_EVERY_MS: '0',
    };
    for (const name of ['gerty', 'patrol'] as const)
      services.push(await startReadyService(cleanups, name, env));
    const nc = await connect({ servers: nats.url, name: 'engram-bench-patrol' });
    cleanups.add(() => nc.close());
    const call = <S extends (typeof Rpcs)[keyof typeof Rpcs]>(
      spec: S,
      request: Parameters<typeof callRpc<S>>[2],
      timeoutMs = 120_000,
      tenantId = TENANT,
    ) => callRpc(nc, spec, request, { tenantId, timeoutMs });

    // The being and its roots: one patrol of an empty being.
    await call(Rpcs.patrolRun, { agent: AGENT });
    const roots = (
      await admin.query<{ id: string }>(`SELECT id::text FROM clusters WHERE tenant_id = $1 ORDER BY id`, [
        TENANT,
      ])
    ).rows.map((r) => r.id);
    const subClusters: string[] = [];
    for (let i = 0; i < SUB_CLUSTERS; i++)
      subClusters.push(
        (
          await admin.query<{ id: string }>(
            `INSERT INTO clusters (tenant_id, agent, name, parent_id, created_at)
             VALUES ($1, $2, $3, $4, now() - interval '1 day') RETURNING id::text`,
            [TENANT, AGENT, `Topic ${i}`, roots[i % 2]],
          )
        ).rows[0]!.id,
      );

    progress(`seeding ${flags.nodes} nodes (embedded by Gerty's model)`);
    const scenes = Array.from({ length: flags.nodes }, (_, i) => ({
      action: `${random.pick(ACTIONS)} with ${random.pick(PEOPLE)} ${random.pick(PLACES)} (${i})`,
      feeling: random.pick(FEELINGS),
      importance: 0.05 + 0.95 * random.next() ** 3,
      when: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    }));
    let model = '';
    for (let from = 0; from < scenes.length; from += EMBED_BATCH) {
      const batch = scenes.slice(from, from + EMBED_BATCH);
      const embedded = await call(Rpcs.gertyEmbed, {
        texts: batch.map((s) => `${s.when} ${s.action} ${s.feeling}`),
      });
      model = embedded.model;
      await admin.query(
        `INSERT INTO memory_nodes (tenant_id, agent, scene, feeling, importance, cluster_id, embedding, embedding_model, fresh)
         SELECT $1, $2, jsonb_build_object('action', s.action, 'actors', '["me"]'::jsonb, 'when', jsonb_build_array(s.day)),
                s.feeling, s.importance, s.cluster_id, s.embedding::halfvec, $3, false
           FROM unnest($4::text[], $5::text[], $6::real[], $7::bigint[], $8::text[], $9::text[])
             AS s (action, feeling, importance, cluster_id, embedding, day)`,
        [
          TENANT,
          AGENT,
          model,
          batch.map((s) => s.action),
          batch.map((s) => s.feeling),
          batch.map((s) => s.importance),
          batch.map((_, i) => subClusters[(from + i) % SUB_CLUSTERS]!),
          embedded.vectors.map((v) => `[${v.values.join(',')}]`),
          batch.map((s) => s.when),
        ],
      );
    }
    // Let go by an earlier consolidation (❹): dead, their importance lowered to the threshold.
    await admin.query(
      `UPDATE memory_nodes SET status = 'dead', importance = 0.05 WHERE tenant_id = $1 AND importance < 0.06`,
      [TENANT],
    );
    await admin.query(`VACUUM ANALYZE memory_nodes`);

    const cycles: number[] = [];
    const recalls: number[] = [];
    const shells: number[] = [];
    const embeds: number[] = [];
    let recalled = 0;
    let revived = 0;
    for (let cycle = 1; cycle <= flags.cycles; cycle++) {
      const started = performance.now();
      const report = await call(Rpcs.patrolRun, { agent: AGENT });
      cycles.push(performance.now() - started);
      revived += report.steps.find((s) => s.step === 'revival')?.counts['revived'] ?? 0;
      for (let r = 0; r < flags.recalls; r++) {
        const message = `I ${random.pick(ACTIONS)} with ${random.pick(PEOPLE)} ${random.pick(PLACES)} and felt ${random.pick(FEELINGS)}`;
        const embedAt = performance.now();
        await call(Rpcs.gertyEmbed, { texts: [message] }, 10_000);
        embeds.push(performance.now() - embedAt);
        const at = performance.now();
        const answer = await call(Rpcs.beingRecall, { agent: AGENT, message }, 10_000);
        recalls.push(performance.now() - at);
        recalled += answer.nodes.length;
        const shellAt = performance.now();
        await call(Rpcs.beingRecall, { agent: AGENT, message }, 10_000, SHELL_TENANT).catch(
          (error: unknown) => {
            if (!(error instanceof RpcError && error.code === 'NOT_FOUND')) throw error;
          },
        );
        shells.push(performance.now() - shellAt);
      }
      if (cycle % 10 === 0)
        progress(`cycle ${cycle}: ${cycles.at(-1)!.toFixed(0)} ms; recalls so far ${recalls.length}`);
    }

    const statuses = Object.fromEntries(
      (
        await admin.query<{ status: string; n: string }>(
          `SELECT status, count(*) AS n FROM memory_nodes WHERE tenant_id = $1 GROUP BY status`,
          [TENANT],
        )
      ).rows.map((r) => [r.status, Number(r.n)]),
    );
    const result: PatrolBenchResult = {
      benchmark: 'patrol',
      finishedAt: new Date().toISOString(),
      machine,
      settings: {
        nodes: flags.nodes,
        cycles: flags.cycles,
        recallsPerCycle: flags.recalls,
        seed: flags.seed,
        model,
      },
      cycle: summarizeLatencies(cycles),
      recall: summarizeLatencies(recalls),
      recallShell: summarizeLatencies(shells),
      embed: summarizeLatencies(embeds),
      recalledPerRequest: recalls.length ? recalled / recalls.length : 0,
      statuses,
      dead: statuses['dead'] ?? 0,
      revived,
      targets: PATROL_TARGETS,
    };
    writeResult(resolve(REPO_ROOT, flags.out), result);
    progress(
      `cycle p50 ${result.cycle.p50Ms} / p95 ${result.cycle.p95Ms} ms (target ≤ ${PATROL_TARGETS.cycleP95Ms}); ` +
        `recall p50 ${result.recall.p50Ms} / p95 ${result.recall.p95Ms} ms (target ≤ ${PATROL_TARGETS.recallP95Ms}; ` +
        `of which embedding the message p50 ${result.embed.p50Ms} / p95 ${result.embed.p95Ms}); ` +
        `the shell p50 ${result.recallShell.p50Ms} / p95 ${result.recallShell.p95Ms} ms (recall ≤ ${PATROL_TARGETS.recallShellRatio} × its p95); ` +
        `dead ${result.dead}, revived ${revived}; written to ${flags.out}`,
    );
    if (flags.json) console.log(JSON.stringify(patrolHeadline(result)));
  } catch (error) {
    dumpServiceOutput(services);
    throw error;
  } finally {
    await cleanups.run();
  }
}

runBench<Flags>(
  new Command('bench:patrol')
    .description('One being of 10,000 scene nodes through 40 mechanical patrols, with recalls between them.')
    .option('--nodes <n>', 'scene nodes of the being', integer(10), 10_000)
    .option('--cycles <n>', 'patrols', integer(1), 40)
    .option('--recalls <n>', 'recalls between two patrols', integer(0), 25)
    .option('--seed <n>', 'corpus seed', integer(0), 42)
    .option('--log-level <level>', 'services log level', 'warn')
    .option('--json', 'print the headline as JSON (last stdout line)', false)
    .option('--out <file>', 'where the full result is written', 'bench-results/patrol.json'),
  main,
);
