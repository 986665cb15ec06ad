import { Client } from 'pg';
import {
  DEATH_THRESHOLD,
  effectiveImportance,
  RECALL_LIMIT,
  RECALL_THRESHOLD,
  vectorLiteral,
} from '@engram/being';
import { Rpcs, type RpcSpec } from '@engram/contracts';
import { LOCAL_EMBEDDING_MODEL_ID, LocalEmbedder } from '@engram/local-model';
import { RpcError, type RpcClient } from '@engram/messaging';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';
import { SIMILAR_NODES_SQL } from './being-recall.repository';

const MESSAGE = 'we baked fresh bread in the kitchen this morning';

/** A unit vector at exactly `cos` to `toward`, turned toward `side` (made orthogonal to it). */
function at(cos: number, toward: ArrayLike<number>, side: ArrayLike<number>): number[] {
  const unit = (v: number[]) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  const m = unit(Array.from(toward));
  const s = Array.from(side);
  const dot = s.reduce((sum, x, i) => sum + x * m[i]!, 0);
  const u = unit(s.map((x, i) => x - dot * m[i]!));
  return m.map((x, i) => cos * x + Math.sqrt(1 - cos * cos) * u[i]!);
}

/** mem.rpc.being.recall against real NATS, Postgres and Gerty (its built-in embedding model). */
describe('a being’s recall (real Postgres, NATS and Gerty)', () => {
  let patrol: ServiceUnderTest;
  let rpc: RpcClient;
  const embedder = LocalEmbedder.load();
  const message = Array.from(embedder.embedOne(MESSAGE));
  /** Directions away from the message, one per node, so no two nodes are alike. */
  let sides = 0;
  const side = () => Array.from(embedder.embedOne(`unrelated words number ${++sides} harbour ferry engine`));

  const acme = { tenantId: 'acme' };
  const failureOf = async <S extends RpcSpec>(spec: S, request: Parameters<RpcClient['call']>[1]) => {
    try {
      await rpc.call(spec, request as never, acme);
    } catch (error) {
      if (error instanceof RpcError) return error;
      throw error;
    }
    throw new Error(`expected ${spec.subject} to fail`);
  };

  const privateRoot = async (tenantId: string, agent: string) =>
    (
      await patrol.apps[0]!.get(TenantTransactions).run(tenantId, (manager) =>
        ensureBeing(manager, tenantId, agent),
      )
    ).private;

  interface Seed {
    readonly cos?: number;
    readonly vector?: number[] | null;
    readonly model?: string;
    readonly status?: string;
    readonly sessionCount?: number;
    readonly absorbedInto?: string;
  }

  /** A node as a patrol would have made it, its vector at `cos` to the message's. */
  const node = async (tenantId: string, agent: string, action: string, seed: Seed = {}): Promise<string> => {
    const vector = seed.vector === undefined ? at(seed.cos ?? 0, message, side()) : seed.vector;
    const [row] = await patrol.sql<{ id: string }>(
      `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene, feeling, importance, status,
                                 session_count, embedding, embedding_model, absorbed_into)
       VALUES ($1, $2, $3, $4, $5, 0.5, $6, $7, $8, $9, $10) RETURNING id::text AS id`,
      [
        tenantId,
        agent,
        await privateRoot(tenantId, agent),
        JSON.stringify({ action, actors: ['me'], when: ['2026-11-02'] }),
        `${action}: glad`,
        seed.status ?? 'active',
        seed.sessionCount ?? 0,
        vector && vectorLiteral(vector),
        vector && (seed.model ?? LOCAL_EMBEDDING_MODEL_ID),
        seed.absorbedInto ?? null,
      ],
    );
    return row!.id;
  };

  const rows = (ids: readonly string[]) =>
    patrol.sql<{
      id: string;
      importance: number;
      session_count: number;
      reactivation_count: number;
      last_activated: Date | null;
    }>(
      `SELECT id::text AS id, importance, session_count, reactivation_count, last_activated
         FROM memory_nodes WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    );
  const recall = (agent: string, tenantId = 'acme', text = MESSAGE) =>
    rpc.call(Rpcs.beingRecall, { agent, message: text }, { tenantId });

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'being_recall',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
      processes: ['gerty'],
    });
    rpc = patrol.rpc;
  });

  afterAll(async () => {
    await patrol?.stop();
  });

  describe('among one being’s scenes', () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      // Dead, and faded just below the threshold: 0.5 · e^(−70/30) ≈ 0.0485.
      ids['dead'] = await node('acme', 'mia', 'baked rye bread', {
        cos: 0.95,
        status: 'dead',
        sessionCount: 70,
      });
      ids['active'] = await node('acme', 'mia', 'kneaded dough', { cos: 0.8 });
      ids['dying'] = await node('acme', 'mia', 'burnt the toast', { cos: 0.6, status: 'dying' });
      ids['fourth'] = await node('acme', 'mia', 'bought flour', { cos: 0.5 });
      ids['far'] = await node('acme', 'mia', 'fixed the bike', { cos: 0.2 });
      ids['otherModel'] = await node('acme', 'mia', 'another model', {
        vector: message,
        model: 'other-model',
      });
      ids['merged'] = await node('acme', 'mia', 'merged away', { cos: 0.99, absorbedInto: ids['active'] });
      ids['unembedded'] = await node('acme', 'mia', 'no vector yet', { vector: null });
      // Another being of the tenant, and the same agent name in another tenant.
      ids['leo'] = await node('acme', 'leo', 'leo baked', { cos: 0.99 });
      ids['globex'] = await node('globex', 'mia', 'globex baked', { cos: 0.99 });
    });

    it('brings back the 3 most similar scenes at 0.35 or more, of any status, most similar first', async () => {
      const before = await rows(Object.values(ids));
      const reply = await recall('mia');
      expect(reply.nodes.map((n) => n.id)).toEqual([ids['dead'], ids['active'], ids['dying']]);
      expect(reply.nodes.map((n) => n.status)).toEqual(['dead', 'active', 'dying']);
      expect(reply.nodes[0]).toMatchObject({
        action: 'baked rye bread',
        feeling: 'baked rye bread: glad',
        text: '2026-11-02 — baked rye bread — (baked rye bread: glad)',
        reactivationCount: 1,
      });
      // Each recalled scene's action and feeling, once each, in a memory tag.
      expect(reply.text).toMatch(/^<memory>.*<\/memory>$/);
      expect(reply.text.slice('<memory>'.length, -'</memory>'.length).split(' / ').sort()).toEqual(
        reply.nodes.flatMap((n) => [n.action, n.feeling]).sort(),
      );

      // Those three are bumped by one and activated now; nothing else changed.
      const after = await rows(Object.values(ids));
      const recalled = new Set(reply.nodes.map((n) => n.id));
      for (const row of after) {
        const was = before.find((b) => b.id === row.id)!;
        if (recalled.has(row.id)) {
          expect(row.reactivation_count).toBe(was.reactivation_count + 1);
          expect(row.last_activated).not.toBeNull();
        } else {
          expect(row).toEqual(was);
        }
      }
    });

    it('lifts a dead scene recalled again above the death threshold, for the patrol to revive', async () => {
      const fading = (row: { importance: number; session_count: number; reactivation_count: number }) =>
        effectiveImportance({
          importance: row.importance,
          sessionCount: row.session_count,
          reactivationCount: row.reactivation_count,
        });
      expect(fading({ importance: 0.5, session_count: 70, reactivation_count: 0 })).toBeLessThanOrEqual(
        DEATH_THRESHOLD,
      );
      const [dead] = await rows([ids['dead']!]);
      expect(dead!.reactivation_count).toBe(1);
      expect(fading(dead!)).toBeGreaterThan(DEATH_THRESHOLD);
    });

    it('keeps two beings of one tenant, and two tenants, apart', async () => {
      expect((await recall('leo')).nodes.map((n) => n.id)).toEqual([ids['leo']]);
      expect((await recall('mia', 'globex')).nodes.map((n) => n.id)).toEqual([ids['globex']]);
      expect(await recall('mia', 'initech')).toMatchObject({ text: '', nodes: [] });
    });
  });

  it('takes a scene at 0.35 and leaves one just below', async () => {
    const above = await node('acme', 'edge', 'just similar enough', { cos: RECALL_THRESHOLD + 0.01 });
    await node('acme', 'edge', 'not quite', { cos: RECALL_THRESHOLD - 0.01 });
    expect((await recall('edge')).nodes.map((n) => n.id)).toEqual([above]);
  });

  it('answers "" and bumps nothing when no scene is similar enough', async () => {
    const far = await node('acme', 'quiet', 'repaired the fence', { cos: 0.1 });
    const before = await rows([far]);
    expect(await recall('quiet')).toMatchObject({ text: '', nodes: [] });
    expect(await rows([far])).toEqual(before);
    expect(await recall('nobody')).toMatchObject({ text: '', nodes: [] });
  });

  it('refuses an empty message with INVALID_ARGUMENT naming it', async () => {
    const error = await failureOf(Rpcs.beingRecall, { agent: 'mia', message: ' ' });
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'message', description: 'message is required' }] },
    });
  });

  it('scans only the being’s own vectors: 10,000 of them among 20,000 of others', async () => {
    await privateRoot('acme', 'big');
    await privateRoot('acme', 'crowd');
    await privateRoot('globex', 'big');
    // Random vectors (each row its own: the subquery names the row's g).
    const seed = async (tenantId: string, agent: string, n: number) =>
      patrol.sql(
        `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene, status, embedding, embedding_model)
         SELECT $1, $2, c.id, jsonb_build_object('action', 'noise ' || g, 'actors', '["me"]'::jsonb),
                (ARRAY['active', 'dying', 'dead'])[1 + g % 3],
                ARRAY(SELECT random() - 0.5 + g * 0 FROM generate_series(1, 100))::halfvec,
                $4
           FROM generate_series(1, $3::int) g, clusters c
          WHERE c.tenant_id = $1 AND c.agent = $2 AND c.root = 'private'`,
        [tenantId, agent, n, LOCAL_EMBEDDING_MODEL_ID],
      );
    await seed('acme', 'big', 10_000);
    await seed('acme', 'crowd', 10_000);
    await seed('globex', 'big', 10_000);
    const planted = [
      await node('acme', 'big', 'planted one', { cos: 0.97 }),
      await node('acme', 'big', 'planted two', { cos: 0.93 }),
      await node('acme', 'big', 'planted three', { cos: 0.9 }),
    ];
    await node('acme', 'crowd', 'crowd twin', { cos: 0.99 });
    await patrol.sql('ANALYZE memory_nodes');

    expect((await recall('big')).nodes.map((n) => n.id)).toEqual(planted);

    // The plan, as the service's role sees the table (row-level security on).
    const app = new Client({ connectionString: patrol.db.appUrl });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('engram.tenant_id', 'acme', true)`);
      const plan = (
        await app.query(`EXPLAIN ${SIMILAR_NODES_SQL}`, [
          'big',
          vectorLiteral(message),
          LOCAL_EMBEDDING_MODEL_ID,
          RECALL_THRESHOLD,
          RECALL_LIMIT,
        ])
      ).rows
        .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
        .join('\n');
      // An index on (tenant_id, agent, …) finds the being's rows; its vectors are compared exactly.
      expect(plan).toMatch(
        /Index Scan (on|using) memory_nodes_\w+[^\n]*\n\s*Index Cond: [^\n]*\(agent = 'big'::text\)/,
      );
      expect(plan).not.toMatch(/Seq Scan on memory_nodes/);
    } finally {
      await app.end();
    }
  });
});
