import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';

/** Every table that holds memory of a tenant, and how many rows of it each tenant holds. */
const MEMORY_TABLES = [
  'conversations',
  'messages',
  'embeddings',
  'item_access',
  'summaries',
  'summary_sources',
  'compactions',
  'facts',
  'state',
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
  'node_history',
  'access_events',
];
/** What an erase keeps: the tenant, its keys and its agents' configuration. */
const KEPT_TABLES = ['tenants', 'api_keys', 'agents', 'workspace_documents', 'skills'];

type Counts = Record<string, number>;

/**
 * `engram_erase` (migration 016) on two tenants holding a row in every table of memory: a
 * conversation, an agent and a whole tenant erased, each exactly and within its tenant, with an
 * audit entry; the app role deletes nothing any other way.
 */
describe('engram_erase (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let app: Client;
  let dims = 0;
  const ids: Record<string, string> = {};

  const one = async (sql: string, params: unknown[] = []): Promise<string> =>
    String(Object.values((await admin.query(sql, params)).rows[0] as object)[0]);

  /** Rows of each memory table per tenant, as the superuser sees them. */
  async function tally(tenant: string): Promise<Counts> {
    const counts: Counts = {};
    for (const table of [...MEMORY_TABLES, ...KEPT_TABLES])
      counts[table] = Number(await one(`SELECT count(*) FROM ${table} WHERE tenant_id = $1`, [tenant]));
    return counts;
  }

  /** Runs `sql` as the app role in one transaction acting for `tenant` (null: none), committed. */
  async function asApp<T extends object>(
    tenant: string | null,
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    await app.query('BEGIN');
    try {
      if (tenant) await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenant]);
      const { rows } = await app.query(sql, params);
      await app.query('COMMIT');
      return rows as T[];
    } catch (error) {
      await app.query('ROLLBACK');
      throw error;
    }
  }

  interface Erased {
    erasure_id: string;
    erased_scope: string;
    erased_agent: string | null;
    erased_session_key: string | null;
    erased_counts: Counts;
  }
  const erase = async (tenant: string, agent: string | null, conversation: string | null) =>
    (
      await asApp<Erased>(
        tenant,
        `SELECT erasure_id::text, erased_scope, erased_agent, erased_session_key, erased_counts
           FROM engram_erase($1, $2, 'spec')`,
        [agent, conversation],
      )
    )[0]!;

  const vector = () => `[${Array.from({ length: dims }, () => 0.1).join(',')}]`;

  /** A tenant with two agents: ada (conversations one and two, a being) and bob (three, a being). */
  async function seed(t: string): Promise<void> {
    const q = (sql: string, params: unknown[] = []) => one(sql, params);
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ($1)`, [t]);
    await admin.query(`INSERT INTO api_keys (id, tenant_id, prefix, sha256) VALUES ($1, $2, 'egm_x', $3)`, [
      `key_${t.padEnd(12, 'x')}`,
      t,
      Buffer.alloc(32, t.length),
    ]);
    await admin.query(`INSERT INTO agents (tenant_id, agent, name) VALUES ($1, 'ada', 'Ada')`, [t]);
    await admin.query(
      `INSERT INTO workspace_documents (tenant_id, agent, name, kind, content) VALUES ($1, 'ada', 'SOUL.md', 'soul', 'calm')`,
      [t],
    );
    await admin.query(
      `INSERT INTO skills (tenant_id, agent, name, body, source) VALUES ($1, 'ada', 'greet', 'Say hi.', 'Say hi.')`,
      [t],
    );
    for (const [conv, agent] of [
      ['one', 'ada'],
      ['two', 'ada'],
      ['three', 'bob'],
    ] as const) {
      const c = await q(
        `INSERT INTO conversations (tenant_id, agent, session_key, message_count) VALUES ($1, $2, $3, 2) RETURNING id`,
        [t, agent, `chat-${conv}`],
      );
      ids[`${t}.${conv}`] = c;
      for (const position of [0, 1]) {
        const m = await q(
          `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
           VALUES ($1, $2, $3, 't1', $4, 1, 'user', $5, 5, now()) RETURNING id`,
          [t, c, agent, position, `secret ${conv} ${position}`],
        );
        ids[`${t}.${conv}.m${position}`] = m;
        await admin.query(
          `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ('message', $1, $2, 'm', $3)`,
          [m, t, vector()],
        );
      }
      await admin.query(
        `INSERT INTO item_access (item_kind, item_id, tenant_id, access_count, last_accessed_at) VALUES ('message', $1, $2, 3, now())`,
        [ids[`${t}.${conv}.m0`], t],
      );
      const s = await q(
        `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
         VALUES ($1, $2, $3, 0, $4, now(), now(), 2, 5, 'm') RETURNING id`,
        [t, c, agent, `summary of ${conv}`],
      );
      ids[`${t}.${conv}.summary`] = s;
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal)
         VALUES ($1, $2, 'message', $3, 1), ($1, $2, 'message', $4, 2)`,
        [t, s, ids[`${t}.${conv}.m0`], ids[`${t}.${conv}.m1`]],
      );
      await admin.query(
        `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ('summary', $1, $2, 'm', $3)`,
        [s, t, vector()],
      );
      await admin.query(
        `INSERT INTO compactions (tenant_id, conversation_id, agent, content, last_message_id, model)
         VALUES ($1, $2, $3, $4, $5, 'm')`,
        [t, c, agent, `rolling ${conv}`, ids[`${t}.${conv}.m1`]],
      );
      await admin.query(
        `INSERT INTO state (tenant_id, agent, key, value, source_message_id, stated_at) VALUES ($1, $2, $3, 'x', $4, now())`,
        [t, agent, `key-${conv}`, ids[`${t}.${conv}.m1`]],
      );
    }
    const fact = (agent: string, key: string, conversation: string | null, sources: string[]) =>
      q(
        `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                            conversation_id, source_message_ids, valid_from)
         VALUES ($1, $2, $3, 'fact', 'sticky', 5, 'saved', $3, $4, $5::bigint[], now()) RETURNING id`,
        [t, agent, key, conversation, sources],
      );
    // Of conversation one; of two, closed by a correction said in one; saved citing one; of two; bob's.
    ids[`${t}.f.one`] = await fact('ada', 'fact one', ids[`${t}.one`]!, [ids[`${t}.one.m0`]!]);
    ids[`${t}.f.correction`] = await fact('ada', 'correction', ids[`${t}.one`]!, []);
    ids[`${t}.f.closed`] = await fact('ada', 'closed', ids[`${t}.two`]!, []);
    await admin.query(`UPDATE facts SET valid_to = now(), superseded_by = $1 WHERE id = $2`, [
      ids[`${t}.f.correction`],
      ids[`${t}.f.closed`],
    ]);
    ids[`${t}.f.cites`] = await fact('ada', 'cites one', null, [ids[`${t}.one.m1`]!]);
    ids[`${t}.f.two`] = await fact('ada', 'fact two', ids[`${t}.two`]!, [ids[`${t}.two.m0`]!]);
    ids[`${t}.f.bob`] = await fact('bob', 'fact bob', ids[`${t}.three`]!, []);
    for (const f of ['one', 'two', 'bob'])
      await admin.query(
        `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ('fact', $1, $2, 'm', $3)`,
        [ids[`${t}.f.${f}`], t, vector()],
      );
    await admin.query(`INSERT INTO access_events (tenant_id, event_id) VALUES ($1, 'e1')`, [t]);
    for (const agent of ['ada', 'bob']) {
      await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ($1, $2)`, [t, agent]);
      const root = await q(
        `INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
         SELECT n.id, $1, $2, 'Private', 'private', n.id
           FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id) n RETURNING id`,
        [t, agent],
      );
      const node = await q(
        `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene) VALUES ($1, $2, $3, '{"action": "baked bread", "actors": []}') RETURNING id`,
        [t, agent, root],
      );
      const run = await q(
        `INSERT INTO patrol_runs (tenant_id, agent, trigger, finished_at) VALUES ($1, $2, 'demand', now()) RETURNING id`,
        [t, agent],
      );
      await admin.query(
        `INSERT INTO node_history (tenant_id, node_id, run_id, step, importance, effective_importance, status)
         VALUES ($1, $2, $3, 'scenes', 0.5, 0.5, 'active')`,
        [t, node, run],
      );
      await admin.query(
        `INSERT INTO notes (tenant_id, agent, kind, content) VALUES ($1, $2, 'note', 'call Mia')`,
        [t, agent],
      );
      await admin.query(
        `INSERT INTO diary (tenant_id, agent, day, content) VALUES ($1, $2, '2026-03-01', 'a day')`,
        [t, agent],
      );
      await admin.query(`INSERT INTO think_notes (tenant_id, agent, content) VALUES ($1, $2, 'think')`, [
        t,
        agent,
      ]);
      await admin.query(`INSERT INTO partner_rules (tenant_id, agent, rule) VALUES ($1, $2, 'be brief')`, [
        t,
        agent,
      ]);
      await admin.query(`INSERT INTO relationships (tenant_id, agent, person) VALUES ($1, $2, 'Mia')`, [
        t,
        agent,
      ]);
      await admin.query(
        `INSERT INTO user_preferences (tenant_id, agent, key, value) VALUES ($1, $2, 'tea', 'green')`,
        [t, agent],
      );
      await admin.query(`INSERT INTO souls (tenant_id, agent, personality) VALUES ($1, $2, 'warm')`, [
        t,
        agent,
      ]);
    }
  }

  beforeAll(async () => {
    db = await createScratchDatabase('erasures');
    admin = new Client({ connectionString: db.adminUrl });
    app = new Client({ connectionString: db.appUrl });
    await Promise.all([admin.connect(), app.connect()]);
    dims = Number(
      await one(
        `SELECT atttypmod FROM pg_attribute WHERE attrelid = 'embeddings'::regclass AND attname = 'embedding'`,
      ),
    );
    await seed('acme');
    await seed('globex');
  });

  afterAll(async () => {
    await Promise.all([app?.end(), admin?.end()]);
    await db?.drop();
  });

  it('leaves the app role no DELETE of its own, and erases nothing for a transaction without a tenant', async () => {
    for (const table of ['messages', 'facts', 'summaries', 'embeddings', 'erasures'])
      await expect(asApp('acme', `DELETE FROM ${table}`)).rejects.toThrow(/permission denied/);
    await expect(asApp(null, `SELECT * FROM engram_erase(NULL, NULL, 'spec')`)).rejects.toThrow(
      /names no tenant/,
    );
    await expect(asApp('acme', `SELECT * FROM engram_erase('ada', 1, 'spec')`)).rejects.toThrow(/not both/);
  });

  it('erases one conversation and what was derived from it, nothing else, and audits it', async () => {
    const acme = await tally('acme');
    const globex = await tally('globex');
    const erased = await erase('acme', null, ids['acme.one']!);
    console.log(`conversation erased: ${JSON.stringify(erased.erased_counts)}`);
    expect(erased).toMatchObject({
      erased_scope: 'conversation',
      erased_agent: 'ada',
      erased_session_key: 'chat-one',
      erased_counts: {
        conversations: 1,
        messages: 2,
        // Two of the messages, the summary, the fact of the conversation.
        vectors: 4,
        summaries: 1,
        compactions: 1,
        // Of the conversation, its correction, and the saved fact citing it.
        facts: 3,
        stateEntries: 1,
      },
    });
    expect(await tally('acme')).toEqual({
      ...acme,
      conversations: acme['conversations']! - 1,
      messages: acme['messages']! - 2,
      embeddings: acme['embeddings']! - 4,
      item_access: acme['item_access']! - 1,
      summaries: acme['summaries']! - 1,
      summary_sources: acme['summary_sources']! - 2,
      compactions: acme['compactions']! - 1,
      facts: acme['facts']! - 3,
      state: acme['state']! - 1,
    });
    expect(await tally('globex')).toEqual(globex);
    // The fact the erased correction closed stays closed, without its link.
    expect(
      (
        await admin.query(`SELECT valid_to IS NOT NULL AS closed, superseded_by FROM facts WHERE id = $1`, [
          ids['acme.f.closed'],
        ])
      ).rows,
    ).toEqual([{ closed: true, superseded_by: null }]);
    expect(
      Number(
        await one(`SELECT count(*) FROM messages WHERE content LIKE 'secret one%' AND tenant_id = 'acme'`),
      ),
    ).toBe(0);
    const audit = (
      await admin.query(
        `SELECT tenant_id, scope, agent, conversation_id::text, requested_by, counts, session_key, streams_erased_at
           FROM erasures WHERE id = $1`,
        [erased.erasure_id],
      )
    ).rows[0];
    expect(audit).toMatchObject({
      tenant_id: 'acme',
      scope: 'conversation',
      agent: 'ada',
      conversation_id: ids['acme.one'],
      requested_by: 'spec',
      counts: erased.erased_counts,
      session_key: 'chat-one',
      streams_erased_at: null,
    });
    expect(JSON.stringify(audit)).not.toContain('secret');
  });

  it('erases nothing more when asked again, and still audits the request', async () => {
    const acme = await tally('acme');
    const again = await erase('acme', null, ids['acme.one']!);
    expect(again.erased_agent).toBeNull();
    expect(Object.values(again.erased_counts).every((n) => n === 0)).toBe(true);
    expect(await tally('acme')).toEqual(acme);
    expect(Number(await one(`SELECT count(*) FROM erasures WHERE tenant_id = 'acme'`))).toBe(2);
  });

  it('erases nothing of another tenant named by id', async () => {
    const globex = await tally('globex');
    const erased = await erase('acme', null, ids['globex.two']!);
    expect(Object.values(erased.erased_counts).every((n) => n === 0)).toBe(true);
    expect(await tally('globex')).toEqual(globex);
  });

  it('erases an agent whole: its conversations, facts, state and being memory', async () => {
    const acme = await tally('acme');
    const erased = await erase('acme', 'ada', null);
    console.log(`agent erased: ${JSON.stringify(erased.erased_counts)}`);
    expect(erased.erased_counts).toEqual({
      conversations: 1,
      messages: 2,
      // Two messages, the summary and a fact of conversation two.
      vectors: 4,
      summaries: 1,
      compactions: 1,
      // Of conversation two, and the one the correction had closed.
      facts: 2,
      stateEntries: 1,
      sceneNodes: 1,
      beingNotes: 3,
      beings: 1,
    });
    const after = await tally('acme');
    // Bob's memory and the tenant's configuration stay.
    expect(after).toMatchObject({
      conversations: 1,
      messages: 2,
      facts: 1,
      beings: 1,
      clusters: 1,
      memory_nodes: 1,
      souls: 1,
      node_history: 1,
      agents: acme['agents'],
      workspace_documents: acme['workspace_documents'],
      skills: acme['skills'],
      api_keys: 1,
    });
  });

  it('erases a whole tenant’s memory, keeping the tenant, its keys and configuration', async () => {
    const globex = await tally('globex');
    const erased = await erase('acme', null, null);
    console.log(`tenant erased: ${JSON.stringify(erased.erased_counts)}`);
    expect(erased.erased_scope).toBe('tenant');
    const after = await tally('acme');
    for (const table of MEMORY_TABLES) expect({ table, rows: after[table] }).toEqual({ table, rows: 0 });
    expect(after).toMatchObject({ tenants: 1, api_keys: 1, agents: 1, workspace_documents: 1, skills: 1 });
    expect(await tally('globex')).toEqual(globex);
    expect(
      (await admin.query(`SELECT scope FROM erasures WHERE tenant_id = 'acme' ORDER BY id`)).rows.map(
        (r: { scope: string }) => r.scope,
      ),
    ).toEqual(['conversation', 'conversation', 'conversation', 'agent', 'tenant']);
  });
});
