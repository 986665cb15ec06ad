import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { readTenantRows } from '../memory-index/index-statements';
import type { Statement } from './search-scope';
import { itemsStatement } from './search-plan';

/**
 * A tenant stored since the last ANALYZE is, by the planner's statistics, one row; in a database
 * never analysed every tenant is a guess. The statements that fetch rows by id (the items a
 * search returns, the rows a change names) must still fetch them by primary key rather than read
 * the tenant's whole index: its first searches after a bulk ingest, or a new installation's,
 * would otherwise cost in proportion to everything it holds.
 */

const KNOWN_TENANTS = 20;
const NEWCOMER = 'newcomer';
const NEWCOMER_MESSAGES = 3_000;

describe.each([
  ['a tenant stored since the last ANALYZE', true],
  ['a database never analysed', false],
])('statements by id, in %s', (_, analysed) => {
  let db: ScratchDatabase;
  let admin: Client;
  let app: Client;
  let ids: string[];

  beforeAll(async () => {
    db = await createScratchDatabase('statements-by-id');
    admin = new Client({ connectionString: db.adminUrl });
    app = new Client({ connectionString: db.appUrl });
    await admin.connect();
    await app.connect();
    // Only the ANALYZE below writes statistics: autovacuum would make the newcomer known.
    for (const table of ['messages', 'conversations', 'item_access'])
      await admin.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    const store = (tenant: string, messages: number) =>
      admin.query(
        `WITH t AS (INSERT INTO tenants (tenant_id) VALUES ($1) RETURNING tenant_id),
              c AS (INSERT INTO conversations (tenant_id, agent, session_key) SELECT tenant_id, 'agent', 's' FROM t RETURNING id, tenant_id)
         INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         SELECT c.tenant_id, c.id, 'agent', 't' || g, 0, g, 'user', 'the river bakery in Lisbon, turn ' || g, 8,
                now() - g * interval '1 minute'
           FROM c, generate_series(1, $2::int) g`,
        [tenant, messages],
      );
    if (analysed) {
      for (let i = 0; i < KNOWN_TENANTS; i++) await store(`known-${i}`, 100);
      await admin.query('ANALYZE');
    }
    await store(NEWCOMER, NEWCOMER_MESSAGES);
    const picked = await admin.query<{ id: string }>(
      `SELECT id::text FROM messages WHERE tenant_id = $1 ORDER BY id LIMIT 10 OFFSET 1000`,
      [NEWCOMER],
    );
    ids = picked.rows.map((r) => r.id);
    await app.query(`SELECT set_config('engram.tenant_id', $1, false)`, [NEWCOMER]);
  });

  afterAll(async () => {
    await app?.end();
    await admin?.end();
    await db?.drop();
  });

  /** The indexes a statement's plan reads messages through, as the newcomer. */
  async function messageIndexes(statement: Statement): Promise<string[]> {
    const explained = await app.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${statement.text}`,
      [...statement.values],
    );
    const found: string[] = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name'] === 'messages') found.push(node['Index Name'] ?? node['Node Type']);
      node.Plans?.forEach(walk);
    };
    walk(explained.rows[0]!['QUERY PLAN'][0].Plan);
    return found;
  }

  it('reads the items a search returns by primary key', async () => {
    const items = itemsStatement(NEWCOMER, { message: ids, summary: [], fact: [] });
    expect(await messageIndexes(items)).toEqual(['messages_pkey']);
    const rows = await app.query(items.text, [...items.values]);
    expect(rows.rows.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
  });

  it('reads the messages a change names by primary key', async () => {
    const statements: Statement[] = [];
    await readTenantRows(
      async (statement) => {
        statements.push(statement);
        return (await app.query(statement.text, [...statement.values])).rows;
      },
      NEWCOMER,
      { message: ids },
    );
    const read = statements.find((s) => /\bmessages m\b/.test(s.text))!;
    expect(await messageIndexes(read)).toEqual(['messages_pkey']);
  });

  it("needs to: asked plainly for the ids, the planner reads the tenant's index too", async () => {
    const plain = {
      text: 'SELECT m.id FROM messages m WHERE m.tenant_id = $1 AND m.id = ANY($2::bigint[])',
      values: [NEWCOMER, ids],
    };
    expect(await messageIndexes(plain)).not.toEqual(['messages_pkey']);
  });
});

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}
