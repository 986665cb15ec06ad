import type { MigrationInterface, QueryRunner } from 'typeorm';

const ITEMS = ['messages', 'summaries', 'facts'] as const;

/**
 * Text is indexed with its language's text-search configuration. A conversation's `language`
 * is decided at ingest once enough of its text has been seen (NULL until then); each message,
 * summary and fact carries the configuration its `tsv` was made with, and a summary or fact
 * takes its conversation's when it has one (a trigger: every writer gets it, none can forget).
 * A tenant's `languages` are every configuration its items use: a query is stemmed with each.
 * Rows written before were indexed as English and stay so. Replacing the generated column
 * rewrites the three tables and rebuilds their tenant+tsv GIN indexes.
 */
export class FtsLanguages1760000000021 implements MigrationInterface {
  name = 'FtsLanguages1760000000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tenants ADD COLUMN languages regconfig[] NOT NULL DEFAULT '{english}';
      ALTER TABLE conversations ADD COLUMN language regconfig;
      ${ITEMS.map(
        (table) => `
      ALTER TABLE ${table} ADD COLUMN language regconfig NOT NULL DEFAULT 'english';
      ALTER TABLE ${table} DROP COLUMN tsv;
      ALTER TABLE ${table} ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector(language, content)) STORED;
      CREATE INDEX ${table}_tenant_tsv ON ${table} USING gin (tenant_id, tsv);`,
      ).join('')}

      -- Generated columns are computed after BEFORE triggers: tsv uses the language set here.
      CREATE FUNCTION engram_conversation_language() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.language := coalesce(
          (SELECT c.language FROM conversations c WHERE c.id = NEW.conversation_id), NEW.language);
        RETURN NEW;
      END $$;
      CREATE TRIGGER summaries_language BEFORE INSERT ON summaries
        FOR EACH ROW EXECUTE FUNCTION engram_conversation_language();
      CREATE TRIGGER facts_language BEFORE INSERT ON facts
        FOR EACH ROW EXECUTE FUNCTION engram_conversation_language();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER facts_language ON facts;
      DROP TRIGGER summaries_language ON summaries;
      DROP FUNCTION engram_conversation_language();
      ${ITEMS.map(
        (table) => `
      ALTER TABLE ${table} DROP COLUMN tsv;
      ALTER TABLE ${table} DROP COLUMN language;
      ALTER TABLE ${table} ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
      CREATE INDEX ${table}_tenant_tsv ON ${table} USING gin (tenant_id, tsv);`,
      ).join('')}
      ALTER TABLE conversations DROP COLUMN language;
      ALTER TABLE tenants DROP COLUMN languages;
    `);
  }
}
