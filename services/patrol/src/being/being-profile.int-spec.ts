import { Rpcs, type RpcSpec } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { ensureBeing, TenantTransactions, type BeingRoots } from '@engram/store';
import { startServiceUnderTest, type ServiceUnderTest, rpcFailure } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';

/**
 * mem.rpc.being.{rule,relationship,preference,soul}.put, mem.rpc.being.get and
 * mem.rpc.being.nodes.pin against real NATS and Postgres.
 */
describe('a being’s profile, its state and pinned scenes (real Postgres and NATS)', () => {
  let patrol: ServiceUnderTest;
  let rpc: RpcClient;

  const failureOf = (spec: RpcSpec, request: Parameters<RpcClient['call']>[1], tenantId?: string) =>
    rpcFailure(rpc, spec, request, tenantId);
  const violations = async <S extends RpcSpec>(spec: S, request: Parameters<RpcClient['call']>[1]) =>
    (await failureOf(spec, request)).details['fieldViolations'];
  const acme = { tenantId: 'acme' };

  /** The being's roots, as every write makes them. */
  const being = (tenantId: string, agent: string): Promise<BeingRoots> =>
    patrol.apps[0]!.get(TenantTransactions).run(tenantId, (manager) => ensureBeing(manager, tenantId, agent));

  /** A node as a patrol would have made it. */
  const node = async (
    tenantId: string,
    agent: string,
    clusterId: string,
    over: { action?: string; status?: string; pinned?: boolean; absorbedInto?: string } = {},
  ): Promise<string> => {
    const [row] = await patrol.sql<{ id: string }>(
      `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene, feeling, status, pinned, absorbed_into, importance, session_count)
       VALUES ($1, $2, $3, $4, 'calm', $5, $6, $7, 0.5, 80) RETURNING id::text AS id`,
      [
        tenantId,
        agent,
        clusterId,
        JSON.stringify({
          action: over.action ?? 'walked to the lake',
          actors: ['me'],
          when: ['2026-10-01', { date: '2026-10-08', action: 'walked again' }],
          setting: 'the lake',
          dialogue: ['look, herons'],
        }),
        over.status ?? 'active',
        over.pinned ?? false,
        over.absorbedInto ?? null,
      ],
    );
    return row!.id;
  };

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'being_profile',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
    });
    rpc = patrol.rpc;
  });

  afterAll(async () => {
    await patrol?.stop();
  });

  describe('upserts', () => {
    const updatedAt = async (table: string, where: string, params: unknown[]) =>
      (await patrol.sql<{ updated_at: Date }>(`SELECT updated_at FROM ${table} WHERE ${where}`, params))[0]!
        .updated_at;

    it('puts a partner rule by its text: the same again changes nothing, a new enabled moves updated_at', async () => {
      const first = await rpc.call(
        Rpcs.beingRulesPut,
        { agent: 'mia', rule: 'No calls after 22:00', enabled: true },
        acme,
      );
      expect(first).toMatchObject({ rule: 'No calls after 22:00', enabled: true });
      expect(await patrol.count(`SELECT count(*) AS n FROM beings WHERE agent = 'mia'`)).toBe(1);
      const at = () => updatedAt('partner_rules', 'id = $1', [first.id]);
      const t0 = await at();

      expect(
        await rpc.call(
          Rpcs.beingRulesPut,
          { agent: 'mia', rule: 'No calls after 22:00', enabled: true },
          acme,
        ),
      ).toEqual(first);
      expect(await at()).toEqual(t0);

      const off = await rpc.call(
        Rpcs.beingRulesPut,
        { agent: 'mia', rule: 'No calls after 22:00', enabled: false },
        acme,
      );
      expect(off).toMatchObject({ id: first.id, enabled: false });
      expect((await at()).getTime()).toBeGreaterThan(t0.getTime());

      const other = await rpc.call(
        Rpcs.beingRulesPut,
        { agent: 'mia', rule: 'Speak German', enabled: true },
        acme,
      );
      expect(other.id).not.toBe(first.id);
      expect(await patrol.count(`SELECT count(*) AS n FROM partner_rules WHERE agent = 'mia'`)).toBe(2);
    });

    it('puts a relationship by person and a preference by key', async () => {
      const rel = { agent: 'mia', person: 'Ada', relation: 'sister', notes: 'bakes on Sundays' };
      expect(await rpc.call(Rpcs.beingRelationshipsPut, rel, acme)).toMatchObject({
        person: 'Ada',
        relation: 'sister',
        notes: 'bakes on Sundays',
      });
      const at = () => updatedAt('relationships', `agent = 'mia' AND person = 'Ada'`, []);
      const t0 = await at();
      await rpc.call(Rpcs.beingRelationshipsPut, rel, acme);
      expect(await at()).toEqual(t0);
      expect(
        await rpc.call(Rpcs.beingRelationshipsPut, { ...rel, notes: 'moved to Porto' }, acme),
      ).toMatchObject({
        relation: 'sister',
        notes: 'moved to Porto',
      });
      expect((await at()).getTime()).toBeGreaterThan(t0.getTime());
      expect(await patrol.count(`SELECT count(*) AS n FROM relationships WHERE agent = 'mia'`)).toBe(1);

      await rpc.call(Rpcs.beingPreferencesPut, { agent: 'mia', key: 'units', value: 'metric' }, acme);
      const pref = () => updatedAt('user_preferences', `agent = 'mia' AND key = 'units'`, []);
      const p0 = await pref();
      await rpc.call(Rpcs.beingPreferencesPut, { agent: 'mia', key: 'units', value: 'metric' }, acme);
      expect(await pref()).toEqual(p0);
      expect(
        await rpc.call(Rpcs.beingPreferencesPut, { agent: 'mia', key: 'units', value: 'imperial' }, acme),
      ).toMatchObject({
        key: 'units',
        value: 'imperial',
      });
      expect((await pref()).getTime()).toBeGreaterThan(p0.getTime());
      expect(await patrol.count(`SELECT count(*) AS n FROM user_preferences WHERE agent = 'mia'`)).toBe(1);
    });

    it('replaces the soul whole; the same soul again changes nothing', async () => {
      const soul = {
        personality: 'curious, dry',
        voice: 'short sentences',
        values: ['honesty', 'bread'],
        backstory: 'grew up by a lake',
        innerWorld: 'wonders about herons',
        examples: ['Herons again.'],
      };
      expect(await rpc.call(Rpcs.beingSoulPut, { agent: 'mia', ...soul }, acme)).toMatchObject(soul);
      const at = () => updatedAt('souls', `agent = 'mia'`, []);
      const t0 = await at();
      await rpc.call(Rpcs.beingSoulPut, { agent: 'mia', ...soul }, acme);
      expect(await at()).toEqual(t0);
      const replaced = await rpc.call(Rpcs.beingSoulPut, { agent: 'mia', voice: 'whispers' }, acme);
      expect(replaced).toMatchObject({ personality: '', voice: 'whispers', values: [], examples: [] });
      expect((await at()).getTime()).toBeGreaterThan(t0.getTime());
      await rpc.call(Rpcs.beingSoulPut, { agent: 'mia', ...soul }, acme);
    });

    it('refuses a bad field of each put with INVALID_ARGUMENT naming it', async () => {
      expect(await violations(Rpcs.beingRulesPut, { agent: 'mia', rule: '' })).toEqual([
        { field: 'rule', description: 'rule is required' },
      ]);
      expect(await violations(Rpcs.beingRelationshipsPut, { agent: 'mia', person: ' ' })).toEqual([
        { field: 'person', description: 'person is required' },
      ]);
      expect(await violations(Rpcs.beingPreferencesPut, { agent: 'mia', key: 'k', value: '' })).toEqual([
        { field: 'value', description: 'value is required' },
      ]);
      expect(await violations(Rpcs.beingSoulPut, { agent: 'mia', values: [''] })).toEqual([
        { field: 'values', description: 'values must be 1-8000 characters each (got "")' },
      ]);
    });
  });

  describe('get', () => {
    let roots: BeingRoots;
    let lakes: string;
    let bread: string;

    beforeAll(async () => {
      roots = await being('acme', 'mia');
      [{ id: lakes }, { id: bread }] = await patrol.sql<{ id: string }>(
        `INSERT INTO clusters (tenant_id, agent, name, parent_id)
         VALUES ('acme', 'mia', 'Lakes', $1), ('acme', 'mia', 'Bread', $1) RETURNING id::text AS id`,
        [roots.private],
      );
      await node('acme', 'mia', lakes);
      await node('acme', 'mia', lakes);
      await node('acme', 'mia', lakes, { status: 'dying' });
      const survivor = await node('acme', 'mia', bread);
      await node('acme', 'mia', bread, { status: 'dead' });
      await node('acme', 'mia', bread, { status: 'dead', absorbedInto: survivor });
      await node('acme', 'mia', roots.business, { status: 'dead' });
      // Notes: 2 unread of other kinds (1 read), scenes: 1 pending, 1 processed, 1 that did not parse.
      for (const [kind, read] of [
        ['note', false],
        ['todo', false],
        ['knowledge', true],
      ] as const) {
        const note = await rpc.call(Rpcs.beingNotesAdd, { agent: 'mia', kind, content: kind }, acme);
        if (read) await rpc.call(Rpcs.beingNotesRead, { agent: 'mia', noteIds: [note.id] }, acme);
      }
      const scene = JSON.stringify({ action: 'baked', actors: ['me'] });
      await rpc.call(Rpcs.beingScenesAdd, { agent: 'mia', scene }, acme);
      const processed = await rpc.call(Rpcs.beingScenesAdd, { agent: 'mia', scene }, acme);
      await patrol.sql(`UPDATE notes SET processed_at = now() WHERE id = $1`, [processed.noteId]);
      await rpc.call(Rpcs.beingScenesAdd, { agent: 'mia', scene: 'not json' }, acme);
      // Another being of the tenant, and the same agent name in another tenant.
      await rpc.call(Rpcs.beingRulesPut, { agent: 'leo', rule: 'Leo’s rule', enabled: true }, acme);
      await node('acme', 'leo', (await being('acme', 'leo')).private);
      await rpc.call(Rpcs.beingNotesAdd, { agent: 'mia', content: 'globex note' }, { tenantId: 'globex' });
    });

    it('answers the soul, rules, relationships, preferences, clusters with their counts, and notes waiting', async () => {
      const got = await rpc.call(Rpcs.beingGet, { agent: 'mia' }, acme);
      expect(got).toMatchObject({
        agent: 'mia',
        soul: {
          personality: 'curious, dry',
          values: ['honesty', 'bread'],
          innerWorld: 'wonders about herons',
        },
        rules: [
          { rule: 'No calls after 22:00', enabled: false },
          { rule: 'Speak German', enabled: true },
        ],
        relationships: [{ person: 'Ada', relation: 'sister', notes: 'moved to Porto' }],
        preferences: [{ key: 'units', value: 'imperial' }],
        unreadNotes: 2,
        pendingScenes: 1,
      });
      expect(got.clusters.map(({ $typeName: _, ...c }) => c)).toEqual([
        {
          id: roots.business,
          name: 'Business',
          root: 'business',
          parentId: roots.business,
          active: 0,
          dying: 0,
          dead: 1,
        },
        {
          id: roots.private,
          name: 'Private',
          root: 'private',
          parentId: roots.private,
          active: 0,
          dying: 0,
          dead: 0,
        },
        { id: lakes, name: 'Lakes', root: '', parentId: roots.private, active: 2, dying: 1, dead: 0 },
        // The node merged into another is not counted.
        { id: bread, name: 'Bread', root: '', parentId: roots.private, active: 1, dying: 0, dead: 1 },
      ]);
    });

    it('answers an empty soul for a being without one, and only that being’s things', async () => {
      const leo = await rpc.call(Rpcs.beingGet, { agent: 'leo' }, acme);
      expect(leo.soul).toMatchObject({ personality: '', voice: '', values: [], examples: [] });
      expect(leo.rules.map((r) => r.rule)).toEqual(['Leo’s rule']);
      expect(leo.relationships).toEqual([]);
      expect(leo.clusters.map((c) => [c.name, c.active])).toEqual([
        ['Business', 0],
        ['Private', 1],
      ]);
      expect(leo).toMatchObject({ unreadNotes: 0, pendingScenes: 0 });
      const globex = await rpc.call(Rpcs.beingGet, { agent: 'mia' }, { tenantId: 'globex' });
      expect(globex).toMatchObject({ rules: [], unreadNotes: 1 });
      expect(globex.clusters.every((c) => c.active + c.dying + c.dead === 0)).toBe(true);
    });

    it('answers NOT_FOUND for an agent that is no being, and makes it none', async () => {
      const error = await failureOf(Rpcs.beingGet, { agent: 'nobody' });
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toBe('agent "nobody" is not a being');
      expect((await failureOf(Rpcs.beingGet, { agent: 'leo' }, 'globex')).code).toBe('NOT_FOUND');
      expect(await patrol.count(`SELECT count(*) AS n FROM beings WHERE agent = 'nobody'`)).toBe(0);
      expect(await patrol.count(`SELECT count(*) AS n FROM clusters WHERE agent = 'nobody'`)).toBe(0);
    });

    it('refuses a bad agent with INVALID_ARGUMENT naming it', async () => {
      expect(await violations(Rpcs.beingGet, { agent: 'a.b' })).toEqual([
        { field: 'agent', description: 'agent must be 1-64 letters, digits, "_" or "-" (got "a.b")' },
      ]);
    });
  });

  describe('pin', () => {
    let roots: BeingRoots;

    beforeAll(async () => {
      roots = await being('acme', 'pia');
    });

    const status = async (id: string) =>
      (
        await patrol.sql<{ status: string; pinned: boolean }>(
          `SELECT status, pinned FROM memory_nodes WHERE id = $1`,
          [id],
        )
      )[0];

    it('pins a dead or dying node back to active, and answers the scene node', async () => {
      const dead = await node('acme', 'pia', roots.private, { status: 'dead' });
      const pinned = await rpc.call(Rpcs.beingNodesPin, { agent: 'pia', nodeId: dead, pinned: true }, acme);
      expect(pinned).toMatchObject({
        id: dead,
        clusterId: roots.private,
        action: 'walked to the lake',
        actors: ['me'],
        when: [
          { date: '2026-10-01', action: '' },
          { date: '2026-10-08', action: 'walked again' },
        ],
        setting: 'the lake',
        dialogue: ['look, herons'],
        feeling: 'calm',
        importance: 0.5,
        status: 'active',
        pinned: true,
        sessionCount: 80,
        text: '2026-10-01 — the lake — walked to the lake — "look, herons" — (calm)',
      });
      expect(await status(dead)).toEqual({ status: 'active', pinned: true });

      const dying = await node('acme', 'pia', roots.private, { status: 'dying' });
      await rpc.call(Rpcs.beingNodesPin, { agent: 'pia', nodeId: dying, pinned: true }, acme);
      expect(await status(dying)).toEqual({ status: 'active', pinned: true });
    });

    it('unpins a node, leaving its status to the next patrol', async () => {
      const dying = await node('acme', 'pia', roots.private, { status: 'dying', pinned: true });
      const unpinned = await rpc.call(
        Rpcs.beingNodesPin,
        { agent: 'pia', nodeId: dying, pinned: false },
        acme,
      );
      expect(unpinned).toMatchObject({ pinned: false, status: 'dying' });
    });

    it('answers NOT_FOUND for another being’s node, another tenant’s, a merged one, or none, changing nothing', async () => {
      const miaNode = await node('acme', 'mia', (await being('acme', 'mia')).private, { status: 'dead' });
      const globexRoots = await being('globex', 'pia');
      const globexNode = await node('globex', 'pia', globexRoots.private, { status: 'dead' });
      const survivor = await node('acme', 'pia', roots.private);
      const merged = await node('acme', 'pia', roots.private, { status: 'dead', absorbedInto: survivor });
      for (const nodeId of [miaNode, globexNode, merged, '987654321']) {
        const error = await failureOf(Rpcs.beingNodesPin, { agent: 'pia', nodeId, pinned: true });
        expect({ nodeId, code: error.code }).toEqual({ nodeId, code: 'NOT_FOUND' });
      }
      for (const id of [miaNode, globexNode, merged])
        expect(await status(id)).toEqual({ status: 'dead', pinned: false });
    });

    it('refuses a bad node id with INVALID_ARGUMENT naming it', async () => {
      expect(await violations(Rpcs.beingNodesPin, { agent: 'pia', nodeId: 'n1', pinned: true })).toEqual([
        { field: 'nodeId', description: '"n1" is not a node id' },
      ]);
    });
  });
});
