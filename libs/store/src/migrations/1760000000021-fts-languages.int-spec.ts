import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import type { QueryRunner } from 'typeorm';
import { migrateDatabase } from '../setup/database-setup';
import { FtsLanguages1760000000021 } from './1760000000021-fts-languages';

/**
 * Migration 021 on a database as migration 020 left it, holding a message, a summary and a
 * fact: each keeps its row and its English tsvector, the tenant+tsv indexes are back; rows
 * written after it are indexed with their language, a summary and a fact taking their
 * conversation's; and it goes down again.
 */
describe('migration 021, text-search languages (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  const ids: Record<string, string> = {};

  const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await admin.query(sql, params)).rows as T[];
  const one = async (sql: string, params: unknown[] = []): Promise<string> =>
    String(Object.values((await admin.query(sql, params)).rows[0] as object)[0]);

  /** A message, a summary and a fact of `conversation`, their ids under `prefix`. */
  async function writeItems(prefix: string, conversation: string, content: string): Promise<void> {
    ids[`${prefix}message`] = await one(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       VALUES ('acme', $1, 'helper', $2, 0, 1, 'user', $3, 10, now()) RETURNING id`,
      [conversation, `${prefix}turn`, content],
    );
    ids[`${prefix}summary`] = await one(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ('acme', $1, 'helper', 0, $2, now(), now(), 1, 10, 'test') RETURNING id`,
      [conversation, content],
    );
    ids[`${prefix}fact`] = await one(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, conversation_id, valid_from)
       VALUES ('acme', 'helper', $2, 'fact', 'sticky', 5, 'saved', $3, $1, now()) RETURNING id`,
      [conversation, content, `${prefix}fact`],
    );
  }

  /** Each item's language and whether its tsv matches `query` in `language`, by kind. */
  const itemsOf = (prefix: string, language: string, query: string) =>
    rows<{ kind: string; language: string; matches: boolean }>(
      `SELECT 'message' AS kind, language::text, tsv @@ to_tsquery($2::regconfig, $3) AS matches FROM messages WHERE id = $1
       UNION ALL SELECT 'summary', language::text, tsv @@ to_tsquery($2::regconfig, $3) FROM summaries WHERE id = $4
       UNION ALL SELECT 'fact', language::text, tsv @@ to_tsquery($2::regconfig, $3) FROM facts WHERE id = $5`,
      [ids[`${prefix}message`], language, query, ids[`${prefix}summary`], ids[`${prefix}fact`]],
    );

  beforeAll(async () => {
    db = await createScratchDatabase('fts_languages', { through: 'SceneRepairs1760000000020' });
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    ids.english = await one(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('acme', 'helper', 'old') RETURNING id`,
    );
    await writeItems('old', ids.english, 'I adopted two cats last spring');
    expect(await migrateDatabase(db.ownerUrl, { through: 'FtsLanguages1760000000021' })).toEqual([
      'FtsLanguages1760000000021',
    ]);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await db?.drop();
  });

  it('keeps every row indexed as English, and the tenant+tsv GIN indexes', async () => {
    expect(await itemsOf('old', 'english', 'cat & adopt')).toEqual([
      { kind: 'message', language: 'english', matches: true },
      { kind: 'summary', language: 'english', matches: true },
      { kind: 'fact', language: 'english', matches: true },
    ]);
    expect(await rows(`SELECT languages::text FROM tenants`)).toEqual([{ languages: '{english}' }]);
    expect(await rows(`SELECT language FROM conversations`)).toEqual([{ language: null }]);
    const indexes = await rows<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_tenant_tsv' ORDER BY indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'facts_tenant_tsv',
      'messages_tenant_tsv',
      'summaries_tenant_tsv',
    ]);
  });

  it("indexes new rows with their language; a summary and a fact take their conversation's", async () => {
    ids.italian = await one(
      `INSERT INTO conversations (tenant_id, agent, session_key, language) VALUES ('acme', 'helper', 'new', 'italian') RETURNING id`,
    );
    await writeItems('new', ids.italian, 'Ho comprato due gatti');
    await admin.query(`UPDATE messages SET language = 'italian' WHERE id = $1`, [ids.newmessage]);
    // "gatto" and "gatti" share the Italian stem.
    expect(await itemsOf('new', 'italian', 'gatto')).toEqual([
      { kind: 'message', language: 'italian', matches: true },
      { kind: 'summary', language: 'italian', matches: true },
      { kind: 'fact', language: 'italian', matches: true },
    ]);
    // An undecided conversation's (NULL): the default.
    await writeItems('undecided', ids.english, 'Two more cats');
    expect((await itemsOf('undecided', 'english', 'cat')).map((i) => i.language)).toEqual([
      'english',
      'english',
      'english',
    ]);
  });

  it('goes down to English tsvectors again', async () => {
    const runner = { query: (sql: string) => admin.query(sql) } as unknown as QueryRunner;
    await new FtsLanguages1760000000021().down(runner);
    expect(await one(`SELECT count(*) FROM messages WHERE tsv @@ to_tsquery('english', 'cat')`)).toBe('2');
    expect(
      await one(
        `SELECT count(*) FROM information_schema.columns WHERE column_name IN ('language', 'languages')`,
      ),
    ).toBe('0');
    await new FtsLanguages1760000000021().up(runner);
  });
});
