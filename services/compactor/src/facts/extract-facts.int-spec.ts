import type { JetStreamClient } from '@nats-io/jetstream';
import { Subjects } from '@engram/contracts';
import { classifyMemoryTag, expiryOf } from '@engram/memory-core';
import { factColumns, type FactRow } from '@engram/store';
import { factEvents, startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadCompactorConfig } from '../compactor.config';
import { CompactorModule } from '../compactor.module';
import { ExtractFactsUseCase } from './extract-facts.use-case';

/**
 * Fact extraction after assistant turns, with the real ingest and Gerty (built-in model) as
 * processes and the compactor in this process: dates made absolute, the same fact updated in
 * place, redelivery adding nothing, corrections superseding, memory off extracting nothing.
 */
describe('compactor: facts after each assistant turn (real Postgres, NATS, ingest and Gerty)', () => {
  let compactor: ServiceUnderTest;
  let js: JetStreamClient;

  const sql = <T extends object>(text: string, params: unknown[] = []) => compactor.sql<T>(text, params);
  const facts = (tenant: string) =>
    sql<FactRow>(`SELECT ${factColumns('f')} FROM facts f WHERE f.tenant_id = $1 ORDER BY f.id`, [tenant]);

  /** One turn: the user's message and the assistant's answer, at `at`. */
  async function publishTurn(
    tenant: string,
    turnId: string,
    at: string,
    user: string,
    assistant: string,
  ): Promise<void> {
    const turn = {
      turnId,
      sessionKey: 'chat',
      occurredAt: at,
      messages: [
        { role: 'user', author: 'Ada', content: user },
        { role: 'assistant', author: 'helper', content: assistant },
      ],
    };
    await js.publish(Subjects.turn(tenant, 'helper'), JSON.stringify(turn), { msgID: `${tenant}-${turnId}` });
  }

  const messageIds = async (turnId: string) =>
    sql<{ id: string; role: string; conversation_id: string }>(
      `SELECT id::text, role, conversation_id::text FROM messages WHERE turn_id = $1 ORDER BY position`,
      [turnId],
    );

  beforeAll(async () => {
    compactor = await startServiceUnderTest({
      label: 'compactor_facts',
      loadConfig: loadCompactorConfig,
      module: (config) => CompactorModule.register(config),
      processes: ['ingest', 'gerty'],
      // A tenant that switched memory off before its first turn.
      seed: (admin) =>
        admin
          .query(`INSERT INTO tenants (tenant_id, memory_enabled) VALUES ('quiet', false)`)
          .then(() => undefined),
    });
    js = compactor.js;
  });

  afterAll(() => compactor?.stop());

  let berlin: FactRow;

  it('"tomorrow" in a turn of 2026-02-22 becomes a fact dated 2026-02-23, pointing to its message, with a vector, announced', async () => {
    await publishTurn(
      'acme',
      't1',
      '2026-02-22T10:00:00Z',
      'Hi! I am flying to Berlin tomorrow.',
      'Have a good flight!',
    );
    await waitFor('the Berlin fact', async () => (await facts('acme')).length > 0, 15_000, 100);
    const all = await facts('acme');
    expect(all).toHaveLength(1);
    berlin = all[0]!;
    expect(berlin.content).toContain('Berlin');
    expect(berlin.content).toContain('2026-02-23');
    expect(berlin.content).not.toMatch(/tomorrow/i);
    expect(berlin.origin).toBe('extracted');
    expect(berlin.validFrom).toEqual(new Date('2026-02-22T10:00:00Z'));
    // Its lifetime counts from when it was said, not from when it was extracted.
    expect(berlin.expiresAt).toEqual(expiryOf(classifyMemoryTag(berlin.category).lifetime, berlin.validFrom));
    const [user] = await messageIds('t1');
    expect(berlin.sourceMessageIds).toEqual([user!.id]);
    const vectors = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM embeddings WHERE item_kind = 'fact' AND item_id = $1`,
      [berlin.id],
    );
    expect(Number(vectors[0]!.n)).toBe(1);
    await waitFor(
      'the announcement',
      async () => (await factEvents(js, 'acme')).some((e) => e.msgId === `fact:acme:${berlin.id}:created`),
      5_000,
      100,
    );
  });

  it('the same fact from the next turn (its window still holds it) is updated in place: same id, created_at kept', async () => {
    await publishTurn(
      'acme',
      't2',
      '2026-02-22T10:05:00Z',
      'I love hiking in the mountains.',
      'That sounds wonderful.',
    );
    await waitFor(
      'the hiking fact',
      async () => (await facts('acme')).some((f) => f.content.includes('hiking')),
      15_000,
      100,
    );
    const all = await facts('acme');
    expect(all).toHaveLength(2);
    const again = all.find((f) => f.content.includes('Berlin'))!;
    expect(again.id).toBe(berlin.id);
    expect(again.createdAt).toEqual(berlin.createdAt);
    expect(again.updatedAt.getTime()).toBeGreaterThan(berlin.updatedAt.getTime());
  });

  it('a redelivered turn inserts nothing new', async () => {
    const before = await facts('acme');
    const [, assistant] = await messageIds('t2');
    await compactor.apps[0]!.get(ExtractFactsUseCase).extract({
      tenantId: 'acme',
      agent: 'helper',
      conversationId: assistant!.conversation_id,
      turnMessageId: assistant!.id,
    });
    const after = await facts('acme');
    expect(after.map((f) => [f.id, f.content, f.createdAt])).toEqual(
      before.map((f) => [f.id, f.content, f.createdAt]),
    );
  });

  it('a near-duplicate in other words (cosine ≥ 0.90) updates the fact in place: same id, new wording, created_at kept', async () => {
    const hiking = (await facts('acme')).find((f) => f.content.includes('hiking'))!;
    await publishTurn(
      'acme',
      't2b',
      '2026-02-22T10:07:00Z',
      'I really love hiking in the mountains.',
      'Me too!',
    );
    await waitFor(
      'the new wording',
      async () => (await facts('acme')).some((f) => f.content.includes('really loves hiking')),
      15_000,
      100,
    );
    const all = (await facts('acme')).filter((f) => f.content.includes('hiking'));
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: hiking.id, createdAt: hiking.createdAt, validTo: null });
    const [user] = await messageIds('t2b');
    expect(all[0]!.sourceMessageIds).toContain(user!.id);
  });

  it('a correction closes the older fact it replaces and links the two; the next turns do not reopen it', async () => {
    await publishTurn('acme', 't3', '2026-02-22T10:10:00Z', 'I live in Lisbon.', 'Lovely city.');
    await waitFor(
      'the Lisbon fact',
      async () => (await facts('acme')).some((f) => f.content.includes('Lisbon')),
      15_000,
      100,
    );
    await publishTurn(
      'acme',
      't4',
      '2026-02-22T10:15:00Z',
      'Actually, I live in Porto, not Lisbon.',
      'Noted.',
    );
    await waitFor(
      'the Porto fact',
      async () => (await facts('acme')).some((f) => f.content.includes('Porto')),
      15_000,
      100,
    );
    await publishTurn('acme', 't5', '2026-02-22T10:20:00Z', 'My sister Emma is a doctor.', 'Good to know.');
    await waitFor(
      'the Emma fact',
      async () => (await facts('acme')).some((f) => f.content.includes('Emma')),
      15_000,
      100,
    );

    const all = await facts('acme');
    const lisbon = all.filter((f) => f.content.includes('Lisbon') && !f.content.includes('Porto'));
    const porto = all.find((f) => f.content.includes('Porto'))!;
    expect(lisbon).toHaveLength(1);
    expect(lisbon[0]).toMatchObject({ supersededBy: porto.id });
    // Closed when the correction was said; both rows kept.
    expect(lisbon[0]!.validTo).toEqual(new Date('2026-02-22T10:15:00Z'));
    expect(porto.category).toBe('correction');
    expect(porto.validTo).toBeNull();
  });

  it('a tenant with memory off gets no facts', async () => {
    await publishTurn(
      'quiet',
      'q1',
      '2026-02-22T10:00:00Z',
      'I am flying to Berlin tomorrow.',
      'Have a good flight!',
    );
    await waitFor('the quiet turn stored', async () => (await messageIds('q1')).length === 2, 10_000, 100);
    // The acme turns after it show the consumer got past it.
    await publishTurn(
      'acme',
      't6',
      '2026-02-22T10:25:00Z',
      'I adopted a cat named Miso.',
      'Congratulations!',
    );
    await waitFor(
      'the Miso fact',
      async () => (await facts('acme')).some((f) => f.content.includes('Miso')),
      15_000,
      100,
    );
    expect(await facts('quiet')).toEqual([]);
  });
});
