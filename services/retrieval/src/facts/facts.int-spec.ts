import type { JetStreamClient } from '@nats-io/jetstream';
import type { Client } from 'pg';
import { Rpcs, timestampDate, timestampFromDate, type Fact, type MessageInitShape } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { factEvents, rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('mem.rpc.facts.list / get / update (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let js: JetStreamClient;

  type Request<K extends keyof typeof Rpcs> = MessageInitShape<(typeof Rpcs)[K]['request']>;
  const save = async (request: Request<'save'>, tenantId = 'acme') =>
    (await rpc.call(Rpcs.save, request, { tenantId })).factId;
  const list = (request: Request<'factsList'>, tenantId = 'acme') =>
    rpc.call(Rpcs.factsList, request, { tenantId });
  const get = (factId: string, tenantId = 'acme') => rpc.call(Rpcs.factsGet, { factId }, { tenantId });
  const update = (request: Request<'factsUpdate'>, tenantId = 'acme') =>
    rpc.call(Rpcs.factsUpdate, request, { tenantId });
  const contents = (facts: readonly Fact[]) => facts.map((f) => f.content);
  const row = async (id: string) =>
    (
      await admin.query<{
        valid_to: Date | null;
        superseded_by: string | null;
        forget_reason: string | null;
      }>(`SELECT valid_to, superseded_by::text, forget_reason FROM facts WHERE id = $1`, [id])
    ).rows[0];

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'facts',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
    });
    ({ admin, rpc, js } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  describe('list', () => {
    let ids: Record<string, string>;

    beforeAll(async () => {
      ids = {
        tea: await save({ agent: 'lister', content: 'Ada drinks green tea.', category: 'preference' }),
        bike: await save({ agent: 'lister', content: 'Ada cycles to work.', category: 'fact' }),
        piano: await save({ agent: 'lister', content: 'Ada plays the piano.', category: 'fact' }),
        other: await save({ agent: 'lister-2', content: 'Sam runs the build server.', category: 'fact' }),
        gone: await save({ agent: 'lister', content: 'Ada owns a red kayak.', category: 'fact' }),
        stale: await save({ agent: 'lister', content: 'Ada is reading Dune.', lifetime: 'project_context' }),
      };
      await rpc.call(Rpcs.forget, { factId: ids['gone']!, reason: 'sold it' }, { tenantId: 'acme' });
      await admin.query(`UPDATE facts SET expires_at = now() - interval '1 day' WHERE id = $1`, [
        ids['stale'],
      ]);
    });

    it('answers the facts in force, newest first, with the count of all that match', async () => {
      const page = await list({ agents: ['lister'] });
      expect(contents(page.facts)).toEqual([
        'Ada plays the piano.',
        'Ada cycles to work.',
        'Ada drinks green tea.',
      ]);
      expect(page.total).toBe(3n);
      expect(page.facts[0]).toMatchObject({
        id: ids['piano'],
        firstId: ids['piano'],
        agent: 'lister',
        category: 'fact',
        lifetime: 'sticky',
        origin: 'saved',
        supersededBy: '',
        accessCount: 0n,
      });
      expect(page.facts[0]!.validTo).toBeUndefined();
    });

    it('shows forgotten and expired facts only with include_closed', async () => {
      const all = await list({ agents: ['lister'], includeClosed: true });
      expect(contents(all.facts)).toEqual([
        'Ada is reading Dune.',
        'Ada owns a red kayak.',
        'Ada plays the piano.',
        'Ada cycles to work.',
        'Ada drinks green tea.',
      ]);
      expect(all.facts[1]).toMatchObject({ forgetReason: 'sold it', validTo: expect.anything() });
    });

    it('filters by agents, categories, conversation and creation time, and pages', async () => {
      expect(contents((await list({ agents: ['lister', 'lister-2'], categories: ['fact'] })).facts)).toEqual([
        'Sam runs the build server.',
        'Ada plays the piano.',
        'Ada cycles to work.',
      ]);
      const piano = (await list({ agents: ['lister'] })).facts[0]!;
      expect(contents((await list({ agents: ['lister'], from: piano.createdAt })).facts)).toEqual([
        'Ada plays the piano.',
      ]);
      expect(contents((await list({ agents: ['lister'], to: piano.createdAt })).facts)).toEqual([
        'Ada cycles to work.',
        'Ada drinks green tea.',
      ]);
      const second = await list({ agents: ['lister'], limit: 1, offset: 1 });
      expect(contents(second.facts)).toEqual(['Ada cycles to work.']);
      expect(second.total).toBe(3n);
      expect((await list({ agents: ['lister'], conversationId: '987654' })).total).toBe(0n);
    });

    it('keeps tenants apart', async () => {
      expect(await list({ agents: ['lister'] }, 'globex')).toMatchObject({ facts: [], total: 0n });
    });

    it('refuses a bad field with a violation naming it', async () => {
      expect(await rpcFailure(rpc, Rpcs.factsList, { categories: ['opinion'], limit: 5000 })).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [
            { field: 'categories', description: expect.stringContaining('"opinion" is not one of') },
            { field: 'limit', description: 'limit must be between 1 and 1000, or 0 for 100 (got 5000)' },
          ],
        },
      });
    });
  });

  describe('update and get', () => {
    it('supersedes: a new version in force, the old one closed with the reason, both announced', async () => {
      const first = await save({
        agent: 'editor',
        content: 'Ada lives in Porto.',
        category: 'fact',
        importance: 6,
      });
      const second = await update({ factId: first, content: 'Ada lives in Lisbon.', reason: 'she moved' });
      expect(second).toMatchObject({
        content: 'Ada lives in Lisbon.',
        agent: 'editor',
        category: 'fact',
        importance: 6,
        origin: 'updated',
        firstId: first,
        supersededBy: '',
      });
      expect(second.id).not.toBe(first);
      expect(await row(first)).toMatchObject({
        superseded_by: second.id,
        forget_reason: 'she moved',
        valid_to: expect.any(Date),
      });
      expect(contents((await list({ agents: ['editor'] })).facts)).toEqual(['Ada lives in Lisbon.']);

      const events = (await factEvents(js, 'acme')).filter((e) =>
        [first, second.id].includes(e.event.factId),
      );
      expect(events.map((e) => [e.event.operation, e.msgId, e.event.supersededBy])).toEqual([
        ['created', `fact:acme:${first}:created`, ''],
        ['created', `fact:acme:${second.id}:created`, ''],
        ['superseded', `fact:acme:${first}:superseded`, second.id],
      ]);

      // The third version takes its own category and importance; the chain keeps its first id.
      const third = await update({
        factId: second.id,
        content: 'Ada lives in Lisbon, by the river.',
        category: 'Event',
        importance: 9,
      });
      expect(third).toMatchObject({ category: 'event', importance: 9, firstId: first });

      await rpc.call(Rpcs.forget, { factId: third.id, reason: 'asked to forget' }, { tenantId: 'acme' });
      for (const anyVersion of [first, second.id, third.id]) {
        const history = await get(anyVersion);
        expect(history.current).toMatchObject({
          id: third.id,
          firstId: first,
          forgetReason: 'asked to forget',
        });
        expect(history.current!.validTo).toBeDefined();
        expect(history.versions.map((v) => [v.event, v.fact!.id, v.oldContent, v.newContent])).toEqual([
          ['ADD', first, '', 'Ada lives in Porto.'],
          ['UPDATE', second.id, 'Ada lives in Porto.', 'Ada lives in Lisbon.'],
          ['UPDATE', third.id, 'Ada lives in Lisbon.', 'Ada lives in Lisbon, by the river.'],
          ['DELETE', third.id, 'Ada lives in Lisbon, by the river.', ''],
        ]);
        const at = history.versions.map((v) => timestampDate(v.at!).getTime());
        expect([...at].sort((a, b) => a - b)).toEqual(at);
      }
      // Every version is listed with include_closed, each naming the chain's first.
      const versions = (await list({ agents: ['editor'], includeClosed: true })).facts;
      expect(versions.map((f) => [f.id, f.firstId])).toEqual([
        [third.id, first],
        [second.id, first],
        [first, first],
      ]);
    });

    it('answers the same fact for the same text, and the written version for a retried update', async () => {
      const id = await save({ agent: 'editor', content: 'The office is on floor 3.' });
      const same = await update({ factId: id, content: '  The office is on floor 3. ' });
      expect(same).toMatchObject({ id, origin: 'saved' });
      const next = await update({ factId: id, content: 'The office is on floor 5.' });
      const retried = await update({ factId: id, content: 'The office is on floor 5.' });
      expect(retried).toEqual(next);
      expect((await get(id)).versions.map((v) => v.event)).toEqual(['ADD', 'UPDATE']);
      expect(
        (await factEvents(js, 'acme')).filter(
          (e) => e.event.factId === next.id && e.event.operation === 'created',
        ),
      ).toHaveLength(1);
    });

    it('refuses to update a closed fact, an unknown one, another tenant’s, and a bad field', async () => {
      const id = await save({ agent: 'editor', content: 'The printer is called Gutenberg.' });
      const next = await update({ factId: id, content: 'The printer is called Caxton.' });
      expect(
        await rpcFailure(rpc, Rpcs.factsUpdate, { factId: id, content: 'The printer is called Aldus.' }),
      ).toMatchObject({
        code: 'FAILED_PRECONDITION',
        message: expect.stringContaining(`fact ${id} is closed (superseded by fact ${next.id})`),
        details: { factId: id, supersededBy: next.id },
      });
      await rpc.call(Rpcs.forget, { factId: next.id }, { tenantId: 'acme' });
      expect(
        await rpcFailure(rpc, Rpcs.factsUpdate, { factId: next.id, content: 'Something else.' }),
      ).toMatchObject({
        code: 'FAILED_PRECONDITION',
        message: expect.stringContaining('(forgotten)'),
      });
      expect(await rpcFailure(rpc, Rpcs.factsUpdate, { factId: '987654', content: 'x' })).toMatchObject({
        code: 'NOT_FOUND',
        message: 'fact 987654 not found',
      });
      const open = await save({ agent: 'editor', content: 'The wifi password is hunter2.' });
      expect(
        await rpcFailure(rpc, Rpcs.factsUpdate, { factId: open, content: 'stolen' }, 'globex'),
      ).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(await rpcFailure(rpc, Rpcs.factsGet, { factId: open }, 'globex')).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(
        await rpcFailure(rpc, Rpcs.factsUpdate, { factId: open, content: ' ', importance: 11 }),
      ).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [
            { field: 'content', description: 'content is required' },
            { field: 'importance', description: 'importance must be between 1 and 10 (got 11)' },
          ],
        },
      });
      expect(await row(open)).toMatchObject({ valid_to: null, superseded_by: null });
    });

    it('answers NOT_FOUND for an unknown fact', async () => {
      expect(await rpcFailure(rpc, Rpcs.factsGet, { factId: '987654' })).toMatchObject({
        code: 'NOT_FOUND',
        message: 'fact 987654 not found',
      });
    });

    it('gives a later version a lifetime counted from the update', async () => {
      const id = await save({
        agent: 'editor',
        content: 'Sprint goal: ship exports.',
        lifetime: 'project_context',
      });
      const next = await update({ factId: id, content: 'Sprint goal: ship imports.' });
      expect(next.lifetime).toBe('project_context');
      const days =
        (timestampDate(next.expiresAt!).getTime() - timestampDate(next.validFrom!).getTime()) / 86_400_000;
      expect(days).toBeCloseTo(30, 5);
      expect(timestampDate(next.validFrom!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    });
  });

  describe('metadata and save keys', () => {
    it('keeps metadata with a fact, lists by containment and carries it to a new version unless replaced', async () => {
      const id = await save({
        agent: 'keeper',
        content: 'Ada prefers window seats.',
        metadata: { source: 'crm', tags: ['travel'], ids: { crm: 42 } },
      });
      await save({ agent: 'keeper', content: 'Ada flies from Porto.', metadata: { source: 'chat' } });
      await save({ agent: 'keeper', content: 'Ada likes jazz.' });

      const fromCrm = await list({ agents: ['keeper'], metadata: { source: 'crm' } });
      expect(contents(fromCrm.facts)).toEqual(['Ada prefers window seats.']);
      expect(fromCrm.facts[0]!.metadata).toEqual({ source: 'crm', tags: ['travel'], ids: { crm: 42 } });
      expect(Number(fromCrm.total)).toBe(1);
      expect(contents((await list({ agents: ['keeper'], metadata: { ids: { crm: 42 } } })).facts)).toEqual([
        'Ada prefers window seats.',
      ]);
      expect((await list({ agents: ['keeper'], metadata: { source: 'nowhere' } })).facts).toEqual([]);

      const renamed = await update({ factId: id, content: 'Ada prefers aisle seats.' });
      expect(renamed.metadata).toEqual({ source: 'crm', tags: ['travel'], ids: { crm: 42 } });
      expect(renamed.firstId).toBe(id);
      const retagged = await update({
        factId: renamed.id,
        content: renamed.content,
        metadata: { source: 'app' },
      });
      expect(retagged).toMatchObject({
        firstId: id,
        content: 'Ada prefers aisle seats.',
        metadata: { source: 'app' },
      });
      expect(contents((await list({ agents: ['keeper'], metadata: { source: 'app' } })).facts)).toEqual([
        'Ada prefers aisle seats.',
      ]);
      // The same metadata again changes nothing: no new version.
      expect(
        (await update({ factId: retagged.id, content: retagged.content, metadata: { source: 'app' } })).id,
      ).toBe(retagged.id);
    });

    it('answers a keyed save again with the fact it made, in force or not, whatever the words', async () => {
      const said = new Date('2024-05-01T09:00:00Z');
      const first = await rpc.call(
        Rpcs.save,
        {
          agent: 'importer',
          content: 'Ada moved to Lisbon.',
          key: 'mem0:m-1',
          validFrom: timestampFromDate(said),
        },
        { tenantId: 'acme' },
      );
      expect(first.deduplicated).toBe(false);
      const again = await rpc.call(
        Rpcs.save,
        { agent: 'importer', content: 'Ada moved to Lisbon!', key: 'mem0:m-1' },
        { tenantId: 'acme' },
      );
      expect(again).toMatchObject({ factId: first.factId, deduplicated: true });
      const fact = (await get(first.factId)).current!;
      expect(fact).toMatchObject({ key: 'mem0:m-1', content: 'Ada moved to Lisbon.' });
      expect(timestampDate(fact.validFrom!)).toEqual(said);
      expect(timestampDate(fact.createdAt!)).toEqual(said);

      // After an update the key answers the version in force, which keeps the key.
      const moved = await update({ factId: first.factId, content: 'Ada moved to Porto.' });
      expect(moved.key).toBe('mem0:m-1');
      expect(
        (
          await rpc.call(
            Rpcs.save,
            { agent: 'importer', content: 'x', key: 'mem0:m-1' },
            { tenantId: 'acme' },
          )
        ).factId,
      ).toBe(moved.id);
      // Another agent's key is another fact.
      expect(
        (
          await rpc.call(
            Rpcs.save,
            { agent: 'importer-2', content: 'Ada moved to Lisbon.', key: 'mem0:m-1' },
            { tenantId: 'acme' },
          )
        ).deduplicated,
      ).toBe(false);
    });

    it('saves a fact that no longer holds already closed, as history', async () => {
      const from = new Date('2023-01-01T00:00:00Z');
      const to = new Date('2024-01-01T00:00:00Z');
      const saved = await rpc.call(
        Rpcs.save,
        {
          agent: 'importer',
          content: 'Ada works at Initech.',
          key: 'zep:edge-1',
          validFrom: timestampFromDate(from),
          validTo: timestampFromDate(to),
        },
        { tenantId: 'acme' },
      );
      const fact = (await get(saved.factId)).current!;
      expect(timestampDate(fact.validTo!)).toEqual(to);
      // Imported again: the closed fact is the answer, not a second one.
      expect(
        await rpc.call(
          Rpcs.save,
          { agent: 'importer', content: 'Ada works at Initech.', key: 'zep:edge-1' },
          { tenantId: 'acme' },
        ),
      ).toMatchObject({ factId: saved.factId, deduplicated: true });
      expect(contents((await list({ agents: ['importer'] })).facts)).not.toContain('Ada works at Initech.');
      expect(contents((await list({ agents: ['importer'], includeClosed: true })).facts)).toContain(
        'Ada works at Initech.',
      );
      expect(
        await rpcFailure(rpc, Rpcs.save, {
          agent: 'importer',
          content: 'Ada works at Globex.',
          validFrom: timestampFromDate(to),
          validTo: timestampFromDate(from),
        }),
      ).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { fieldViolations: [{ field: 'validTo', description: 'validTo is not after validFrom' }] },
      });
    });

    it('finds by search only the facts whose metadata contains the filter', async () => {
      await save({
        agent: 'finder',
        content: 'The launch is planned for March.',
        metadata: { project: 'apollo' },
      });
      await save({
        agent: 'finder',
        content: 'The launch of the website is in June.',
        metadata: { project: 'web' },
      });
      const hits = await rpc.call(
        Rpcs.search,
        {
          query: 'launch',
          filters: { agent: 'finder', metadata: { project: 'apollo' } },
          recordAccess: false,
        },
        { tenantId: 'acme' },
      );
      expect(hits.hits.map((h) => h.content)).toEqual(['The launch is planned for March.']);
    });
  });
});
