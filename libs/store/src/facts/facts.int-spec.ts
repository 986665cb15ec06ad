import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { createDataSource } from '../data-source';
import type { FactRow } from '../rows/fact.row';
import { TenantTransactions } from '../tenancy/tenant-transactions';
import { findFact, findFactByOriginKey, findFactsByOriginKeys, openFactsSharingWords } from './fact-reads';
import { factClosed, factInForce, factInForceAsOf, factOpen, isFactInForce, isFactOpen } from './fact-rules';
import {
  forgetFact,
  insertFact,
  insertFactOnce,
  renewFact,
  restateFact,
  supersedeFact,
  type NewFact,
} from './fact-writes';

const DAY_MS = 86_400_000;
const NOW = Date.now();
const daysAgo = (days: number) => new Date(NOW - days * DAY_MS);

/** A fact of agent "helper" with what the test does not care about filled in. */
const fact = (originKey: string, content: string, extra: Partial<NewFact> = {}): NewFact => ({
  agent: 'helper',
  content,
  category: 'fact',
  lifetime: 'sticky',
  importance: 6,
  origin: 'saved',
  originKey,
  conversationId: null,
  sourceMessageIds: [],
  validFrom: daysAgo(10),
  expiresAt: null,
  ...extra,
});

/**
 * libs/store's fact rules and fact functions against real Postgres, as the app role under
 * row-level security: the SQL of "open" and "in force" says what the same rules say of a fact
 * read, and every write keeps a fact's history (closed, never deleted) and is idempotent by key.
 */
describe('fact rules and fact functions (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let dataSource: DataSource;
  let transactions: TenantTransactions;
  const as = <T>(work: (m: EntityManager) => Promise<T>, tenant = 'acme') => transactions.run(tenant, work);

  beforeAll(async () => {
    db = await createScratchDatabase('store-facts');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    dataSource = createDataSource(db.appUrl, { poolSize: 2, applicationName: 'store-facts-spec' });
    await dataSource.initialize();
    transactions = new TenantTransactions(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin?.end();
    await db?.drop();
  });

  describe('open and in force', () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      await as(async (m) => {
        ids['sticky'] = await insertFact(m, 'acme', fact('r-sticky', 'Ada is allergic to peanuts'));
        ids['fresh'] = await insertFact(
          m,
          'acme',
          fact('r-fresh', 'Ada learns Portuguese', { lifetime: 'project_context', expiresAt: daysAgo(-20) }),
        );
        ids['expired'] = await insertFact(
          m,
          'acme',
          fact('r-expired', 'Ada plans a trip', { lifetime: 'project_context', expiresAt: daysAgo(2) }),
        );
        ids['forgotten'] = await insertFact(m, 'acme', fact('r-forgotten', 'Ada lives in Porto'));
        ids['newer'] = await insertFact(m, 'acme', fact('r-newer', 'Ada lives in Lisbon'));
        ids['superseded'] = await insertFact(m, 'acme', fact('r-superseded', 'Ada lived in Faro'));
        await forgetFact(m, ids['forgotten']!, 'wrong');
        await supersedeFact(m, ids['superseded']!, ids['newer']!, { at: daysAgo(5) });
      });
    });

    /** Each fact's verdict under the SQL rules (at `asOf` for factInForceAsOf), beside the fact read. */
    const verdicts = (asOf: Date) =>
      as(async (m) => {
        const rows: Array<{ id: string; open: boolean; closed: boolean; in_force: boolean; then: boolean }> =
          await m.query(
            `SELECT f.id::text, ${factOpen('f')} AS open, ${factClosed('f')} AS closed,
                    ${factInForce('f')} AS in_force, ${factInForceAsOf('f', '$1::timestamptz')} AS then
               FROM facts f WHERE f.origin_key LIKE 'r-%' ORDER BY f.id`,
            [asOf.toISOString()],
          );
        const read: Array<(typeof rows)[number] & { fact: FactRow }> = [];
        for (const r of rows) read.push({ ...r, fact: (await findFact(m, r.id))! });
        return read;
      });

    it('says in SQL what isFactOpen and isFactInForce say of each fact read', async () => {
      const now = new Date();
      const all = await verdicts(now);
      expect(all).toHaveLength(6);
      for (const v of all) {
        expect({ id: v.id, open: v.open, closed: v.closed }).toEqual({
          id: v.id,
          open: isFactOpen(v.fact),
          closed: !isFactOpen(v.fact),
        });
        expect({ id: v.id, inForce: v.in_force }).toEqual({ id: v.id, inForce: isFactInForce(v.fact, now) });
      }
      const inForce = all.filter((v) => v.in_force).map((v) => v.id);
      expect(inForce.sort()).toEqual([ids['sticky'], ids['fresh'], ids['newer']].sort());
    });

    it('counts a fact superseded or expired since as in force as of a moment before', async () => {
      const then = await verdicts(daysAgo(7));
      const inForceThen = then.filter((v) => v.then).map((v) => v.id);
      // Forgotten now (closed at now): in force a week ago, as the others that held then.
      expect(inForceThen.sort()).toEqual(Object.values(ids).sort());
      const before = await verdicts(daysAgo(11));
      expect(before.filter((v) => v.then)).toEqual([]);
    });
  });

  describe('writes', () => {
    it('inserts once by origin key: a retried insert answers null and adds nothing', async () => {
      const first = await as((m) => insertFactOnce(m, 'acme', fact('w-once', 'Ada drinks tea')));
      const again = await as((m) => insertFactOnce(m, 'acme', fact('w-once', 'Ada drinks tea')));
      expect(first).not.toBeNull();
      expect(again).toBeNull();
      const found = await as((m) => findFactsByOriginKeys(m, ['w-once', 'w-none']));
      expect(found.map((f) => f.id)).toEqual([first]);
      expect(found[0]).toMatchObject<Partial<FactRow>>({
        tenantId: 'acme',
        agent: 'helper',
        content: 'Ada drinks tea',
        origin: 'saved',
        originKey: 'w-once',
        validTo: null,
        supersededBy: null,
        metadata: {},
        saveKey: null,
        language: 'english',
      });
    });

    it('keeps facts of other tenants out of reach', async () => {
      const id = await as((m) => insertFact(m, 'globex', fact('w-globex', 'Eve keeps secrets')), 'globex');
      expect(await as((m) => findFact(m, id))).toBeNull();
      expect(await as((m) => findFactByOriginKey(m, 'w-globex'))).toBeNull();
      expect(await as((m) => forgetFact(m, id, null))).toBeNull();
      expect(await as((m) => findFact(m, id), 'globex')).toMatchObject({ validTo: null });
    });

    it('supersedes an open fact once, never before it began, keeping the reason', async () => {
      const [older, newer] = await as(async (m) => [
        await insertFact(m, 'acme', fact('w-older', 'Ada works at Acme', { validFrom: daysAgo(1) })),
        await insertFact(m, 'acme', fact('w-newer', 'Ada works at Globex')),
      ]);
      expect(await as((m) => supersedeFact(m, older!, newer!, { at: daysAgo(3), reason: 'moved' }))).toBe(
        true,
      );
      expect(await as((m) => supersedeFact(m, older!, newer!))).toBe(false);
      const closed = (await as((m) => findFact(m, older!)))!;
      expect(closed).toMatchObject({ supersededBy: newer, forgetReason: 'moved' });
      expect(closed.validTo).toEqual(closed.validFrom);
    });

    it('forgets an open fact now, and answers a closed one as it was', async () => {
      const id = await as((m) => insertFact(m, 'acme', fact('w-forget', 'Ada owns a cat')));
      const forgotten = (await as((m) => forgetFact(m, id, 'asked to')))!;
      expect(forgotten).toMatchObject({ id, forgetReason: 'asked to', supersededBy: null });
      expect(forgotten.validTo).toBeInstanceOf(Date);
      const again = await as((m) => forgetFact(m, id, 'twice'));
      expect(again).toEqual(forgotten);
      expect(await as((m) => forgetFact(m, '999999999', null))).toBeNull();
    });

    it('renews a fact with a lifetime, never shortening it, and leaves a sticky one as it is', async () => {
      const expiresAt = daysAgo(-5);
      const [lasting, sticky] = await as(async (m) => [
        await insertFact(
          m,
          'acme',
          fact('w-lasting', 'Ada ships Friday', { lifetime: 'project_context', expiresAt }),
        ),
        await insertFact(m, 'acme', fact('w-sticky', 'Ada was born in Porto')),
      ]);
      await as(async (m) => {
        await renewFact(m, lasting!, daysAgo(-30));
        await renewFact(m, sticky!, daysAgo(-30));
      });
      expect((await as((m) => findFact(m, lasting!)))!.expiresAt).toEqual(daysAgo(-30));
      await as((m) => renewFact(m, lasting!, daysAgo(-1)));
      expect((await as((m) => findFact(m, lasting!)))!.expiresAt).toEqual(daysAgo(-30));
      expect((await as((m) => findFact(m, sticky!)))!.expiresAt).toBeNull();
    });

    it('restates a fact in place: new wording, more sources, longer life, same creation', async () => {
      const id = await as((m) =>
        insertFact(
          m,
          'acme',
          fact('w-restate', 'Ada hikes', {
            lifetime: 'learned_pattern',
            expiresAt: daysAgo(-3),
            sourceMessageIds: ['7'],
          }),
        ),
      );
      const before = (await as((m) => findFact(m, id)))!;
      await as((m) =>
        restateFact(m, id, {
          content: 'Ada hikes every weekend',
          category: 'preference',
          importance: 8,
          sourceMessageIds: ['9', '7'],
          expiresAt: daysAgo(-20),
        }),
      );
      const after = (await as((m) => findFact(m, id)))!;
      expect(after).toMatchObject({
        content: 'Ada hikes every weekend',
        category: 'preference',
        importance: 8,
        sourceMessageIds: ['7', '9'],
        expiresAt: daysAgo(-20),
        createdAt: before.createdAt,
        validFrom: before.validFrom,
        validTo: null,
      });
    });
  });

  describe('openFactsSharingWords', () => {
    it('finds the facts in force at the moment asked that share a word, none closed or expired by then', async () => {
      const [kept, expired, closed] = await as(async (m) => [
        await insertFact(m, 'acme', fact('s-kept', 'Ada collects vinyl records')),
        await insertFact(
          m,
          'acme',
          fact('s-expired', 'Ada sells vinyl', { lifetime: 'project_context', expiresAt: daysAgo(1) }),
        ),
        await insertFact(m, 'acme', fact('s-closed', 'Ada buys vinyl')),
      ]);
      await as((m) => forgetFact(m, closed!, null));
      const now = await as((m) => openFactsSharingWords(m, 'helper', ['more vinyl'], new Date()));
      expect(now.map((f) => f.id)).toEqual([kept]);
      // Stated three days ago: the fact that expired since was still in force then.
      const then = await as((m) => openFactsSharingWords(m, 'helper', ['more vinyl'], daysAgo(3)));
      expect(then.map((f) => f.id).sort()).toEqual([kept, expired].sort());
    });
  });
});
