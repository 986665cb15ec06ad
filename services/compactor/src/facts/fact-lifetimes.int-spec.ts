import type { Client } from 'pg';
import { Rpcs, type SearchResponse } from '@engram/contracts';
import { expiryOf, type FactLifetime } from '@engram/memory-core';
import { callRpc } from '@engram/messaging';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Fact lifetimes, end to end: facts written with the lifetime rule of memory-core (expiry
 * counted from when the fact was said), served by the real retrieval (memory_search) while
 * in force; an expired fact stops being served but stays stored; a sticky fact never expires.
 */
describe('fact lifetimes (real Postgres, NATS, retrieval and Gerty)', () => {
  let env: TestEnvironment;
  let admin: Client;

  async function insertFact(
    key: string,
    content: string,
    lifetime: FactLifetime,
    validFrom: Date,
  ): Promise<void> {
    await admin.query(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, source_message_ids, valid_from, expires_at)
       VALUES ('acme', 'helper', $1, 'fact', $2, 6, 'saved', $3, '{}', $4, $5)`,
      [content, lifetime, key, validFrom.toISOString(), expiryOf(lifetime, validFrom)?.toISOString() ?? null],
    );
  }

  const search = (query: string) =>
    callRpc(
      env.nc,
      Rpcs.search,
      { query, topK: 20, filters: { kinds: ['fact'] } },
      { tenantId: 'acme' },
    ) as Promise<SearchResponse>;

  async function seed(seeding: Client): Promise<void> {
    admin = seeding;
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    const now = Date.now();
    // Said 60 days ago: project context lives 30 days from then.
    await insertFact(
      'expired',
      'Ada is learning Portuguese for the Lisbon trip',
      'project_context',
      new Date(now - 60 * DAY_MS),
    );
    // Said yesterday: in force for another 29 days.
    await insertFact(
      'fresh',
      'Ada is learning Portuguese verbs with flashcards',
      'project_context',
      new Date(now - DAY_MS),
    );
    // Said three years ago, but sticky.
    await insertFact('sticky', 'Ada is allergic to peanuts', 'sticky', new Date(now - 3 * 365 * DAY_MS));
  }

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'fact_lifetimes', seed, processes: ['gerty', 'retrieval'] });
  });

  afterAll(() => env?.stop());

  it('a fact past its lifetime is not served by memory_search, yet stays in the facts table', async () => {
    const res = await search('Ada learning Portuguese');
    const contents = res.hits.map((h) => h.content);
    expect(contents).toContain('Ada is learning Portuguese verbs with flashcards');
    expect(contents).not.toContain('Ada is learning Portuguese for the Lisbon trip');
    const stored = await admin.query<{ expires_at: Date; valid_from: Date; valid_to: Date | null }>(
      `SELECT expires_at, valid_from, valid_to FROM facts WHERE origin_key = 'expired'`,
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.valid_to).toBeNull();
    expect(stored.rows[0]!.expires_at.getTime()).toBe(stored.rows[0]!.valid_from.getTime() + 30 * DAY_MS);
    expect(stored.rows[0]!.expires_at.getTime()).toBeLessThan(Date.now());
  });

  it('a sticky fact said years ago is still served', async () => {
    const res = await search('peanuts allergy');
    expect(res.hits.map((h) => h.content)).toContain('Ada is allergic to peanuts');
    const stored = await admin.query<{ expires_at: Date | null }>(
      `SELECT expires_at FROM facts WHERE origin_key = 'sticky'`,
    );
    expect(stored.rows[0]!.expires_at).toBeNull();
  });
});
