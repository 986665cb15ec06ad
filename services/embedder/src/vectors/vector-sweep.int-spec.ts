import type { Client } from 'pg';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadEmbedderConfig } from '../embedder.config';
import { EmbedderModule } from '../embedder.module';
import { VectorSweepService } from './vector-sweep.service';

/** The built-in model's id: what the sweep embeds with. */
const MODEL = 'engram-local-glove-sif-100d-v1';
/** Passes a sweep may take before ids settle (SettledIds needs three looks) or a skipped tenant is read again. */
const PASSES = 8;

/**
 * The vector sweep against real Postgres, NATS and Gerty (built-in model): rows no event ever
 * announced get their vectors, and a pass reads only what came above the tenant's mark.
 */
describe('vector sweep (real Postgres, NATS and Gerty)', () => {
  let embedder: ServiceUnderTest;
  let sweep: VectorSweepService;

  /** Messages written behind the event path's back: no mem.message.stored for any of them. */
  async function insertMessages(admin: Client, tenant: string, count: number): Promise<string[]> {
    const { rows } = await admin.query<{ id: string }>(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       SELECT $1, c.id, 'helper', 't-' || g || '-' || clock_timestamp(), 0, g, 'user',
              'the quarterly report on coffee exports from Brazil, part ' || g, 10, now()
         FROM conversations c, generate_series(1, $2) g WHERE c.tenant_id = $1
       RETURNING id::text`,
      [tenant, count],
    );
    return rows.map((r) => r.id);
  }

  async function seed(admin: Client): Promise<void> {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    await admin.query(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('acme', 'helper', 'chat'), ('globex', 'helper', 'chat')`,
    );
    await insertMessages(admin, 'acme', 30);
    await insertMessages(admin, 'globex', 5);
  }

  /** Sweeps until `done` holds, at most PASSES times; whether it held. */
  async function sweepUntil(done: () => Promise<boolean>): Promise<boolean> {
    for (let pass = 0; pass < PASSES; pass++) {
      await sweep.sweepOnce();
      if (await done()) return true;
    }
    return false;
  }

  const withoutVector = (tenant: string) =>
    embedder.count(
      `SELECT count(*) AS n FROM messages m WHERE m.tenant_id = $1
          AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.item_kind = 'message' AND e.item_id = m.id AND e.model = $2)`,
      [tenant, MODEL],
    );
  const mark = async (tenant: string) =>
    (
      await embedder.sql<{ swept_id: string }>(
        `SELECT swept_id::text FROM vector_sweep_marks WHERE tenant_id = $1 AND item_kind = 'message'`,
        [tenant],
      )
    )[0]?.swept_id;
  /** The last message id of any tenant: ids are shared, so a tenant is swept through everyone's last. */
  const lastMessage = async () =>
    (await embedder.sql<{ id: string }>(`SELECT max(id)::text AS id FROM messages`))[0]!.id;

  beforeAll(async () => {
    embedder = await startServiceUnderTest({
      label: 'vector-sweep',
      loadConfig: loadEmbedderConfig,
      module: (config) => EmbedderModule.register(config),
      // The timer never fires here: the test runs each pass itself.
      config: { EMBEDDER_SWEEP_INTERVAL_MS: '86400000', EMBEDDER_SWEEP_GRACE_MS: '0' },
      seed,
      processes: ['gerty'],
    });
    sweep = embedder.apps[0]!.get(VectorSweepService);
  });

  afterAll(async () => {
    await embedder?.stop();
  });

  it('embeds messages whose events were lost, and marks every tenant swept through the last id', async () => {
    expect(
      await sweepUntil(async () => (await withoutVector('acme')) + (await withoutVector('globex')) === 0),
    ).toBe(true);
    expect(await mark('acme')).toBe(await lastMessage());
    expect(await mark('globex')).toBe(await lastMessage());
  });

  it('reads only rows above the mark: a new row gets its vector, one below the mark is not read again', async () => {
    // No code removes a vector but with its row; here one is, below the mark, to see whether a pass reads there.
    const [below] = await embedder.sql<{ id: string }>(
      `DELETE FROM embeddings WHERE item_kind = 'message' AND item_id = (SELECT min(id) FROM messages WHERE tenant_id = 'acme') RETURNING item_id::text AS id`,
    );
    const [added] = await insertMessages(embedder.admin, 'acme', 1);
    expect(
      await sweepUntil(async () => (await withoutVector('acme')) === 1 && (await mark('acme')) === added),
    ).toBe(true);
    for (let pass = 0; pass < PASSES; pass++) await sweep.sweepOnce();
    const missing = await embedder.sql<{ id: string }>(
      `SELECT m.id::text AS id FROM messages m WHERE m.tenant_id = 'acme'
          AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.item_kind = 'message' AND e.item_id = m.id)`,
    );
    expect(missing).toEqual([{ id: below!.id }]);
  });

  it('re-embeds with the current model what another model embedded, below the mark too', async () => {
    await embedder.admin.query(
      `UPDATE embeddings SET model = 'some-old-model' WHERE item_kind = 'message' AND tenant_id = 'globex'`,
    );
    expect(await sweepUntil(async () => (await withoutVector('globex')) === 0)).toBe(true);
  });
});
