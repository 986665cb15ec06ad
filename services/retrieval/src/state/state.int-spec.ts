import type { Client } from 'pg';
import { Rpcs, timestampDate } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('mem.rpc.state.list (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;

  /** What ingest leaves of [STATE:key] tags: one row per agent and key, the latest statement. */
  async function seed(admin: Client) {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    await admin.query(
      `INSERT INTO state (tenant_id, agent, key, value, source_message_id, stated_at) VALUES
         ('acme', 'helper', 'current_project', 'engram', 41, '2026-03-01T10:00Z'),
         ('acme', 'helper', 'mood', 'focused', NULL, '2026-03-02T11:00Z'),
         ('acme', 'other', 'current_project', 'apollo', 7, '2026-03-01T09:00Z'),
         ('globex', 'helper', 'current_project', 'secret', 3, '2026-03-01T09:00Z')`,
    );
  }

  const list = (request: { agent: string; keys?: string[] }, tenantId = 'acme') =>
    rpc.call(Rpcs.stateList, request, { tenantId });

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'state',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    ({ rpc } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it("answers the agent's entries by key, with when and where each was stated", async () => {
    const { entries } = await list({ agent: 'helper' });
    expect(entries.map((e) => [e.key, e.value, e.sourceMessageId])).toEqual([
      ['current_project', 'engram', '41'],
      ['mood', 'focused', ''],
    ]);
    expect(timestampDate(entries[0]!.statedAt!).toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(entries[0]!.updatedAt).toBeDefined();
  });

  it('answers only the keys asked for (one key is `state get`), leaving out keys never stated', async () => {
    expect((await list({ agent: 'helper', keys: ['mood', 'unknown'] })).entries.map((e) => e.key)).toEqual([
      'mood',
    ]);
    expect((await list({ agent: 'nobody' })).entries).toEqual([]);
  });

  it('keeps tenants apart', async () => {
    expect((await list({ agent: 'helper' }, 'globex')).entries.map((e) => e.value)).toEqual(['secret']);
    expect((await list({ agent: 'other' }, 'globex')).entries).toEqual([]);
  });

  it('refuses a bad field with a violation naming it', async () => {
    expect(await rpcFailure(rpc, Rpcs.stateList, { agent: '', keys: ['a b'] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [
          { field: 'agent', description: 'agent is required' },
          { field: 'keys', description: expect.stringContaining('"a b" is not a state key') },
        ],
      },
    });
  });
});
