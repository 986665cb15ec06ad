import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { migrateDatabase } from '../setup/database-setup';

/** Every table of being memory: each confined to its tenant for the app role. */
const BEING_TABLES = [
  'beings',
  'clusters',
  'memory_nodes',
  'notes',
  'diary',
  'think_notes',
  'partner_rules',
  'relationships',
  'user_preferences',
  'souls',
  'patrol_runs',
];

/**
 * Migration 012 on a database as migration 011 left it: migration 010's `memory_nodes` and
 * `agent_notes` rows of two tenants go into the being store, nothing is lost, and row-level
 * security still confines every table; then the store's two SECURITY DEFINER functions.
 */
describe('migration 012, being memory (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let app: Client;
  const nodes: Record<string, string> = {};

  const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await admin.query(sql, params)).rows as T[];

  /**
   * Runs `work` as the app role in one transaction acting for `tenant` (null: naming none),
   * rolled back unless `commit`.
   */
  async function asApp<T>(
    tenant: string | null,
    work: (client: Client) => Promise<T>,
    { commit = false } = {},
  ): Promise<T> {
    await app.query('BEGIN');
    let committed = false;
    try {
      if (tenant) await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenant]);
      const result = await work(app);
      if (commit) {
        await app.query('COMMIT');
        committed = true;
      }
      return result;
    } finally {
      if (!committed) await app.query('ROLLBACK');
    }
  }

  beforeAll(async () => {
    db = await createScratchDatabase('being_migration', { through: 'Outbox1760000000011' });
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    app = new Client({ connectionString: db.appUrl });
    await app.connect();

    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const node = async (
      key: string,
      tenant: string,
      agent: string,
      cluster: string | null,
      title: string | null,
      content: string,
      lastActivatedAt: string | null,
    ) => {
      nodes[key] = (
        await admin.query(
          `INSERT INTO memory_nodes (tenant_id, agent, cluster, title, content, activation, last_activated_at)
           VALUES ($1, $2, $3, $4, $5, 0.7, $6) RETURNING id::text`,
          [tenant, agent, cluster, title, content, lastActivatedAt],
        )
      ).rows[0].id;
    };
    await node('bread', 'acme', 'ada', 'Family', 'Kitchen', 'Baked bread with Mia.', '2026-11-20T10:00Z');
    await node('dog', 'acme', 'ada', null, null, 'Walked the dog.', null);
    await node('search', 'acme', 'bob', 'Work', 'Office', 'Shipped search.', '2026-11-18T16:00Z');
    await node('curry', 'globex', 'ada', 'Cooking', null, 'Tried a new curry.', '2026-11-21T19:00Z');

    await admin.query(
      `INSERT INTO agent_notes (tenant_id, agent, kind, content, day, read_at, created_at) VALUES
         ('acme', 'ada', 'note', 'Call Mia back.', NULL, NULL, '2026-11-20T09:00Z'),
         ('acme', 'ada', 'note', 'Old read note.', NULL, '2026-11-02T08:00Z', '2026-11-01T09:00Z'),
         ('acme', 'ada', 'think', 'Sam likes mornings.', NULL, NULL, '2026-11-19T09:00Z'),
         ('acme', 'ada', 'partner_rule', 'Never deploy on Fridays.', NULL, NULL, '2026-11-03T09:00Z'),
         ('acme', 'ada', 'partner_rule', 'Never deploy on Fridays.', NULL, NULL, '2026-11-05T09:00Z'),
         ('acme', 'ada', 'preference', 'Green tea, no sugar.', NULL, NULL, '2026-11-04T09:00Z'),
         ('acme', 'ada', 'relationship', 'Mia is Sam''s sister.', NULL, NULL, '2026-11-04T10:00Z'),
         ('acme', 'ada', 'knowledge', 'The blue cluster runs Postgres 15.', NULL, NULL, '2026-11-06T09:00Z'),
         ('acme', 'ada', 'map', 'billing -> blue cluster', NULL, NULL, '2026-11-06T10:00Z'),
         ('acme', 'ada', 'diary', 'Morning draft.', '2026-11-20', NULL, '2026-11-20T08:00Z'),
         ('acme', 'ada', 'diary', 'Evening, final.', '2026-11-20', NULL, '2026-11-20T21:00Z'),
         ('acme', 'ada', 'diary', 'Undated entry.', NULL, NULL, '2026-11-19T23:30Z'),
         ('globex', 'eve', 'note', 'Globex note.', NULL, NULL, '2026-11-20T09:00Z'),
         ('globex', 'eve', 'think', 'Globex think.', NULL, NULL, '2026-11-20T09:00Z'),
         ('globex', 'eve', 'diary', 'Globex diary.', '2026-11-20', NULL, '2026-11-20T09:00Z')`,
    );

    expect(await migrateDatabase(db.ownerUrl, { through: 'BeingMemory1760000000012' })).toEqual([
      'BeingMemory1760000000012',
    ]);
  }, 120_000);

  afterAll(async () => {
    await app?.end();
    await admin?.end();
    await db?.drop();
  });

  it('keeps every node, with its id, in its being’s Private root, its content as the action and its cluster as a theme', async () => {
    const kept = await rows(
      `SELECT m.id::text, m.tenant_id, m.agent, m.scene, m.themes, m.status, m.importance, m.pinned,
              m.last_activated, c.root, c.agent AS cluster_agent, c.tenant_id AS cluster_tenant
         FROM memory_nodes m JOIN clusters c ON c.id = m.cluster_id ORDER BY m.id`,
    );
    expect(kept).toEqual([
      {
        id: nodes['bread'],
        tenant_id: 'acme',
        agent: 'ada',
        scene: { action: 'Baked bread with Mia.', actors: [], setting: 'Kitchen' },
        themes: ['Family'],
        status: 'active',
        importance: 0.5,
        pinned: false,
        last_activated: new Date('2026-11-20T10:00Z'),
        root: 'private',
        cluster_agent: 'ada',
        cluster_tenant: 'acme',
      },
      expect.objectContaining({
        id: nodes['dog'],
        scene: { action: 'Walked the dog.', actors: [] },
        themes: [],
        last_activated: null,
        root: 'private',
        cluster_agent: 'ada',
        cluster_tenant: 'acme',
      }),
      expect.objectContaining({
        id: nodes['search'],
        agent: 'bob',
        scene: { action: 'Shipped search.', actors: [], setting: 'Office' },
        themes: ['Work'],
        root: 'private',
        cluster_agent: 'bob',
        cluster_tenant: 'acme',
      }),
      expect.objectContaining({
        id: nodes['curry'],
        tenant_id: 'globex',
        scene: { action: 'Tried a new curry.', actors: [] },
        themes: ['Cooking'],
        root: 'private',
        cluster_agent: 'ada',
        cluster_tenant: 'globex',
      }),
    ]);
    const columns = await rows<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'memory_nodes'`,
    );
    expect(columns.map((c) => c.column_name)).not.toEqual(
      expect.arrayContaining(['cluster', 'title', 'content', 'activation', 'last_activated_at']),
    );
  });

  it('makes every agent with nodes or notes a being with exactly its two self-parented roots', async () => {
    expect(await rows(`SELECT tenant_id, agent FROM beings ORDER BY 1, 2`)).toEqual([
      { tenant_id: 'acme', agent: 'ada' },
      { tenant_id: 'acme', agent: 'bob' },
      { tenant_id: 'globex', agent: 'ada' },
      { tenant_id: 'globex', agent: 'eve' },
    ]);
    expect(
      await rows(
        `SELECT tenant_id, agent, array_agg(name || '/' || root ORDER BY root) AS roots,
                bool_and(parent_id = id) AS self_parented, count(DISTINCT id)::int AS ids
           FROM clusters GROUP BY tenant_id, agent ORDER BY 1, 2`,
      ),
    ).toEqual(
      [
        ['acme', 'ada'],
        ['acme', 'bob'],
        ['globex', 'ada'],
        ['globex', 'eve'],
      ].map(([tenant_id, agent]) => ({
        tenant_id,
        agent,
        roots: ['Business/business', 'Private/private'],
        self_parented: true,
        ids: 2,
      })),
    );
  });

  it('moves each kind of note into its table', async () => {
    expect(
      await rows(
        `SELECT tenant_id, agent, kind, content, read_at FROM notes ORDER BY tenant_id, agent, created_at`,
      ),
    ).toEqual([
      {
        tenant_id: 'acme',
        agent: 'ada',
        kind: 'note',
        content: 'Old read note.',
        read_at: new Date('2026-11-02T08:00Z'),
      },
      {
        tenant_id: 'acme',
        agent: 'ada',
        kind: 'knowledge',
        content: 'The blue cluster runs Postgres 15.',
        read_at: null,
      },
      {
        tenant_id: 'acme',
        agent: 'ada',
        kind: 'knowledge',
        content: 'billing -> blue cluster',
        read_at: null,
      },
      { tenant_id: 'acme', agent: 'ada', kind: 'note', content: 'Call Mia back.', read_at: null },
      { tenant_id: 'globex', agent: 'eve', kind: 'note', content: 'Globex note.', read_at: null },
    ]);
    // One entry per day, the latest written; an undated entry is of the (UTC) day it was written.
    expect(
      await rows(`SELECT tenant_id, agent, day::text, content FROM diary ORDER BY tenant_id, agent, day`),
    ).toEqual([
      { tenant_id: 'acme', agent: 'ada', day: '2026-11-19', content: 'Undated entry.' },
      { tenant_id: 'acme', agent: 'ada', day: '2026-11-20', content: 'Evening, final.' },
      { tenant_id: 'globex', agent: 'eve', day: '2026-11-20', content: 'Globex diary.' },
    ]);
    expect(
      await rows(
        `SELECT tenant_id, agent, content, superseded_at, run_id FROM think_notes ORDER BY tenant_id`,
      ),
    ).toEqual([
      { tenant_id: 'acme', agent: 'ada', content: 'Sam likes mornings.', superseded_at: null, run_id: null },
      { tenant_id: 'globex', agent: 'eve', content: 'Globex think.', superseded_at: null, run_id: null },
    ]);
    // A rule written twice is one rule, as old as its first copy, and enabled.
    expect(await rows(`SELECT tenant_id, agent, rule, enabled, created_at FROM partner_rules`)).toEqual([
      {
        tenant_id: 'acme',
        agent: 'ada',
        rule: 'Never deploy on Fridays.',
        enabled: true,
        created_at: new Date('2026-11-03T09:00Z'),
      },
    ]);
    expect(await rows(`SELECT tenant_id, agent, person, relation, notes FROM relationships`)).toEqual([
      {
        tenant_id: 'acme',
        agent: 'ada',
        person: expect.stringMatching(/^note \d+$/),
        relation: '',
        notes: "Mia is Sam's sister.",
      },
    ]);
    expect(await rows(`SELECT tenant_id, agent, key, value FROM user_preferences`)).toEqual([
      {
        tenant_id: 'acme',
        agent: 'ada',
        key: expect.stringMatching(/^note \d+$/),
        value: 'Green tea, no sugar.',
      },
    ]);
    expect(await rows(`SELECT to_regclass('agent_notes') AS t`)).toEqual([{ t: null }]);
  });

  it('confines every table to its tenant for the app role, forced on all but beings', async () => {
    await admin.query(
      `INSERT INTO souls (tenant_id, agent, personality) VALUES ('acme', 'ada', 'warm'), ('globex', 'eve', 'dry');
       INSERT INTO patrol_runs (tenant_id, agent, trigger) VALUES ('acme', 'ada', 'demand'), ('globex', 'eve', 'schedule');
       INSERT INTO partner_rules (tenant_id, agent, rule) VALUES ('globex', 'eve', 'Be brief.');
       INSERT INTO relationships (tenant_id, agent, person) VALUES ('globex', 'eve', 'Kim');
       INSERT INTO user_preferences (tenant_id, agent, key, value) VALUES ('globex', 'eve', 'tea', 'none');`,
    );
    expect(
      await rows(
        `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
          WHERE relname = ANY($1) AND relkind = 'r' ORDER BY relname`,
        [BEING_TABLES],
      ),
    ).toEqual(
      [...BEING_TABLES].sort().map((relname) => ({
        relname,
        relrowsecurity: true,
        relforcerowsecurity: relname !== 'beings',
      })),
    );
    for (const table of BEING_TABLES) {
      const all = await rows<{ tenant_id: string; n: number }>(
        `SELECT tenant_id, count(*)::int AS n FROM ${table} GROUP BY tenant_id ORDER BY tenant_id`,
      );
      expect([table, all.map((r) => r.tenant_id)]).toEqual([table, ['acme', 'globex']]);
      for (const { tenant_id, n } of all) {
        const seen = await asApp(
          tenant_id,
          async (c) =>
            (await c.query(`SELECT tenant_id, count(*)::int AS n FROM ${table} GROUP BY tenant_id`)).rows,
        );
        expect([table, seen]).toEqual([table, [{ tenant_id, n }]]);
      }
      const none = await asApp(null, async (c) => (await c.query(`SELECT 1 FROM ${table}`)).rowCount);
      expect([table, none]).toEqual([table, 0]);
    }
    // Writing for another tenant is refused.
    await expect(
      asApp('acme', (c) =>
        c.query(`INSERT INTO notes (tenant_id, agent, kind, content) VALUES ('globex', 'eve', 'note', 'x')`),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  describe('engram_beings_due', () => {
    it('answers the beings of every tenant whose last patrol is older than the interval, never-patrolled first', async () => {
      await admin.query(
        `UPDATE beings SET last_patrol_at = CASE
           WHEN tenant_id = 'acme' AND agent = 'ada' THEN now() - interval '2 hours'
           WHEN tenant_id = 'acme' AND agent = 'bob' THEN now() - interval '10 minutes'
           WHEN tenant_id = 'globex' AND agent = 'ada' THEN now() - interval '3 hours'
           ELSE NULL END`,
      );
      // The app role, no tenant named: the schedule's one look across tenants.
      const due = await asApp(
        null,
        async (c) =>
          (await c.query(`SELECT tenant_id, agent FROM engram_beings_due(interval '1 hour', 10)`)).rows,
      );
      expect(due).toEqual([
        { tenant_id: 'globex', agent: 'eve' },
        { tenant_id: 'globex', agent: 'ada' },
        { tenant_id: 'acme', agent: 'ada' },
      ]);
      const two = await asApp(
        'acme',
        async (c) =>
          (await c.query(`SELECT tenant_id, agent FROM engram_beings_due(interval '1 hour', 2)`)).rows,
      );
      expect(two).toEqual(due.slice(0, 2));
    });
  });

  describe('engram_delete_empty_clusters', () => {
    /** A sub-cluster under `parent`; returns its id. */
    const cluster = async (tenant: string, agent: string, name: string, parent: string) =>
      (
        await admin.query(
          `INSERT INTO clusters (tenant_id, agent, name, parent_id) VALUES ($1, $2, $3, $4) RETURNING id::text`,
          [tenant, agent, name, parent],
        )
      ).rows[0].id as string;
    const root = async (tenant: string, agent: string) =>
      (
        await admin.query(
          `SELECT id::text FROM clusters WHERE tenant_id = $1 AND agent = $2 AND root = 'private'`,
          [tenant, agent],
        )
      ).rows[0].id as string;
    const deleteAs = (tenant: string | null, ids: string[]) =>
      asApp(
        tenant,
        async (c) =>
          (await c.query(`SELECT engram_delete_empty_clusters($1::bigint[]) AS gone`, [ids])).rows[0]
            .gone as number,
        { commit: true },
      );

    it('deletes only empty sub-clusters of the caller’s tenant without children', async () => {
      const acmeRoot = await root('acme', 'ada');
      const empty = await cluster('acme', 'ada', 'Empty', acmeRoot);
      const withNode = await cluster('acme', 'ada', 'Family', acmeRoot);
      await admin.query(`UPDATE memory_nodes SET cluster_id = $1 WHERE id = $2`, [withNode, nodes['bread']]);
      const parent = await cluster('acme', 'ada', 'Parent', acmeRoot);
      const child = await cluster('acme', 'ada', 'Child', parent);
      const globexEmpty = await cluster('globex', 'ada', 'Empty', await root('globex', 'ada'));
      const everything = [empty, withNode, parent, child, globexEmpty, acmeRoot];

      expect(await deleteAs(null, everything)).toBe(0);
      // The parent still has its child when the statement starts: it stays, the child goes.
      expect(await deleteAs('acme', everything)).toBe(2);
      const left = await rows<{ id: string }>(`SELECT id::text FROM clusters WHERE id = ANY($1::bigint[])`, [
        everything,
      ]);
      expect(left.map((r) => r.id).sort()).toEqual([withNode, parent, globexEmpty, acmeRoot].sort());
      // Emptied of its child, the parent goes on the next call.
      expect(await deleteAs('acme', [parent])).toBe(1);
      expect(await deleteAs('globex', [globexEmpty])).toBe(1);
    });

    it('is the app role’s only way to delete a cluster', async () => {
      await expect(asApp('acme', (c) => c.query(`DELETE FROM clusters`))).rejects.toThrow(
        /permission denied/,
      );
    });
  });
});
