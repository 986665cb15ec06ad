import { Rpcs, type PatrolReport } from '@engram/contracts';
import {
  startFakeOpenAiServer,
  startServiceUnderTest,
  type FakeOpenAiServer,
  type ServiceUnderTest,
} from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';

const DIARY = 'Today Mia and I baked bread.\nThe kitchen smelled like home.\nI want to remember her laugh.';
const NOTES = ['Ask Mia how the bread turned out', 'Mention the trip to Lisbon', 'Be gentle: she is tired'];

/**
 * The patrol with a language model (Gerty in front of a fake OpenAI-compatible server): the
 * repair of scene notes that did not parse, ❹ consolidation, ❻ split, the diary and think notes
 * applied when the answers hold, and refused whole — leaving memory as it was — when they do
 * not parse or name unknown nodes.
 */
describe('patrol with a language model (fake OpenAI server, real Gerty, Postgres, NATS)', () => {
  let server: FakeOpenAiServer;
  let patrol: ServiceUnderTest;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    patrol = await startServiceUnderTest({
      label: 'patrol_llm',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
      // Completions by the fake endpoint; embeddings stay with the built-in model.
      processes: [
        { name: 'gerty', env: { GERTY_OPENAI_BASE_URL: server.url, GERTY_OPENAI_CHAT_MODEL: 'fake-chat' } },
      ],
      config: { PATROL_EVERY_MS: '0' },
    });
  });

  afterAll(async () => {
    await patrol?.stop();
    await server?.close();
  });

  const run = (agent: string): Promise<PatrolReport> =>
    patrol.rpc.call(Rpcs.patrolRun, { agent }, { tenantId: 'acme', timeoutMs: 60_000 });
  const step = (report: PatrolReport, name: string) => report.steps.find((s) => s.step === name)!;
  const asked = (from: number) =>
    server.requests.slice(from).map((r) => {
      const body = r.body as { messages: Array<{ content: string }> };
      return body.messages.map((m) => m.content).join('\n');
    });

  async function subCluster(agent: string, name: string): Promise<string> {
    const [root] = await patrol.sql<{ id: string }>(
      `SELECT id::text FROM clusters WHERE tenant_id = 'acme' AND agent = $1 AND root = 'private'`,
      [agent],
    );
    const [cluster] = await patrol.sql<{ id: string }>(
      `INSERT INTO clusters (tenant_id, agent, name, parent_id, created_at)
       VALUES ('acme', $1, $2, $3, now() - interval '1 day') RETURNING id::text`,
      [agent, name, root!.id],
    );
    return cluster!.id;
  }

  /** A scene note, as a being adds it: the next patrol's ❶ makes a node of it. */
  const addScene = (agent: string, scene: object) =>
    patrol.rpc.call(Rpcs.beingScenesAdd, { agent, scene: JSON.stringify(scene) }, { tenantId: 'acme' });

  /** A node as ❶ would have made it (its vector is made by the next patrol's ❶). */
  async function node(agent: string, clusterId: string, action: string, fresh = true): Promise<string> {
    const [row] = await patrol.sql<{ id: string }>(
      `INSERT INTO memory_nodes (tenant_id, agent, scene, cluster_id, fresh)
       VALUES ('acme', $1, $2::jsonb, $3, $4) RETURNING id::text`,
      [agent, JSON.stringify({ action, actors: ['me'], when: ['2026-11-02'] }), clusterId, fresh],
    );
    return row!.id;
  }

  it('writes today’s diary and think notes in the being’s voice after scene notes came in', async () => {
    await patrol.sql(`INSERT INTO tenants (tenant_id) VALUES ('acme') ON CONFLICT DO NOTHING`);
    await patrol.sql(
      `INSERT INTO souls (tenant_id, agent, personality, voice) VALUES ('acme', 'mia', 'warm and curious', 'soft, in short sentences')`,
    );
    await addScene('mia', { action: 'baked bread with Mia in the kitchen', actors: ['me', 'Mia'] });
    const from = server.requests.length;
    server.script(
      { kind: 'content', content: JSON.stringify({ merges: [], makeDead: [] }) },
      { kind: 'content', content: `  ${DIARY}\n\n` },
      { kind: 'content', content: JSON.stringify({ notes: NOTES }) },
    );

    const report = await run('mia');

    expect(step(report, 'scenes').counts).toMatchObject({ nodes: 1 });
    expect(step(report, 'consolidation')).toMatchObject({ skipped: false, counts: { clusters: 1 } });
    expect(step(report, 'diary')).toMatchObject({ skipped: false, counts: { written: 1, lines: 3 } });
    expect(step(report, 'think')).toMatchObject({ skipped: false, counts: { written: 3 } });
    expect(asked(from)).toHaveLength(3);
    expect(asked(from)[1]).toContain('soft, in short sentences');
    expect(asked(from)[1]).toContain('baked bread with Mia in the kitchen');
    expect(await patrol.sql(`SELECT day::text, content FROM diary WHERE agent = 'mia'`)).toEqual([
      { day: today, content: DIARY },
    ]);
    expect(
      (
        await patrol.sql<{ content: string }>(
          `SELECT content FROM think_notes WHERE agent = 'mia' AND superseded_at IS NULL ORDER BY id`,
        )
      ).map((n) => n.content),
    ).toEqual(NOTES);
  });

  it('❹ merges and lets go as the model says; refuses whole an answer naming an unknown node; no diary without scene notes', async () => {
    const baking = await subCluster('mia', 'Baking');
    const a = await node('mia', baking, 'baked bread with Mia');
    const b = await node('mia', baking, 'Mia and I baked bread');
    const c = await node('mia', baking, 'a delivery came');
    for (const action of ['kneaded dough', 'bought flour']) await node('mia', baking, action);
    const work = await subCluster('mia', 'Work');
    const workNodes = [
      await node('mia', work, 'met the client'),
      await node('mia', work, 'wrote the report'),
      await node('mia', work, 'missed the bus'),
    ];
    await patrol.sql(`UPDATE memory_nodes SET importance = 0.5`);
    const from = server.requests.length;
    server.script(
      {
        kind: 'content',
        content: JSON.stringify({ merges: [{ survivorId: a, absorbedIds: [b] }], makeDead: [c] }),
      },
      {
        kind: 'content',
        content: JSON.stringify({
          merges: [{ survivorId: workNodes[0], absorbedIds: ['999999'] }],
          makeDead: [],
        }),
      },
    );

    const report = await run('mia');

    expect(step(report, 'consolidation').counts).toEqual({
      clusters: 1,
      merged: 1,
      absorbed: 1,
      dead: 1,
      refused: 1,
    });
    // Nodes came from elsewhere, not from scene notes: the diary and think notes wait, as designed.
    for (const name of ['diary', 'think'])
      expect(step(report, name)).toMatchObject({ skipped: true, reason: 'no scene notes this run' });
    expect(asked(from)).toHaveLength(2);
    expect(asked(from)[0]).toContain(`${a}`);
    const rows = await patrol.sql<{
      id: string;
      status: string;
      importance: number;
      fresh: boolean;
      absorbed_into: string | null;
      when: unknown[];
    }>(
      `SELECT id::text, status, importance, fresh, absorbed_into::text, scene -> 'when' AS when
         FROM memory_nodes WHERE agent = 'mia' ORDER BY id`,
    );
    const of = (id: string) => rows.find((r) => r.id === id)!;
    expect(of(a)).toMatchObject({ status: 'active', fresh: false, absorbed_into: null });
    expect(of(a).importance).toBeCloseTo(0.55);
    expect(of(a).when).toEqual(['2026-11-02', { date: '2026-11-02', action: 'Mia and I baked bread' }]);
    expect(of(b)).toMatchObject({ status: 'dead', absorbed_into: a });
    expect(of(c)).toMatchObject({ status: 'dead', absorbed_into: null });
    // The refused answer changed nothing of its cluster.
    for (const id of workNodes)
      expect(of(id)).toMatchObject({ status: 'active', fresh: true, importance: 0.5 });
    // The diary and think notes in force are the first run's.
    expect(await patrol.sql(`SELECT content FROM diary WHERE agent = 'mia'`)).toEqual([{ content: DIARY }]);
    expect(
      await patrol.count(
        `SELECT count(*) AS n FROM think_notes WHERE agent = 'mia' AND superseded_at IS NULL`,
      ),
    ).toBe(3);
  });

  it('❻ splits a crowded cluster into the named groups the model gives, as its children', async () => {
    // A first patrol makes ben a being (its roots).
    await run('ben');
    const everyday = await subCluster('ben', 'Everyday');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await node('ben', everyday, `moment ${i}`, false));
    const groups = [
      { name: 'Kitchen', nodeIds: ids.slice(0, 3) },
      { name: 'Garden', nodeIds: ids.slice(3, 5) },
    ];
    server.script({ kind: 'content', content: JSON.stringify({ groups }) });

    const report = await run('ben');

    expect(step(report, 'split').counts).toEqual({ split: 1, clusters: 2, moved: 5, refused: 0 });
    const children = await patrol.sql<{ name: string; n: string }>(
      `SELECT c.name, count(m.id) AS n FROM clusters c JOIN memory_nodes m ON m.cluster_id = c.id
        WHERE c.parent_id = $1 GROUP BY c.name ORDER BY c.name`,
      [everyday],
    );
    expect(children.map((c) => [c.name, Number(c.n)])).toEqual([
      ['Garden', 2],
      ['Kitchen', 3],
    ]);
    expect(
      await patrol.count(`SELECT count(*) AS n FROM memory_nodes WHERE cluster_id = $1`, [everyday]),
    ).toBe(7);
  });

  it('offers a scene note that did not parse for repair once: a repaired one is a node in the same run, a failed one stays marked', async () => {
    const add = (scene: string) =>
      patrol.rpc.call(Rpcs.beingScenesAdd, { agent: 'eve', scene }, { tenantId: 'acme' });
    const mended = 'baked bread with Mia in the kitchen on 2026-11-02, "smells like home"';
    const a = await add(mended);
    const b = await add('{"action": "???"}');
    expect([a.parseFailed, b.parseFailed]).toEqual([true, true]);
    const scene = {
      action: 'baked bread with Mia',
      actors: ['me', 'Mia'],
      when: ['2026-11-02'],
      setting: 'the kitchen',
      dialogue: ['smells like home'],
      sensory: [],
      feeling: '',
    };
    const from = server.requests.length;
    server.script(
      { kind: 'content', content: JSON.stringify(scene) },
      // Fits the JSON schema, but is no scene: nobody took part.
      { kind: 'content', content: JSON.stringify({ ...scene, action: '???', actors: [] }) },
      { kind: 'content', content: JSON.stringify({ merges: [], makeDead: [] }) },
      { kind: 'content', content: DIARY },
      { kind: 'content', content: JSON.stringify({ notes: NOTES }) },
    );

    const report = await run('eve');

    expect(step(report, 'repair')).toMatchObject({
      skipped: false,
      counts: { offered: 2, repaired: 1, refused: 1, unoffered: 0 },
    });
    expect(step(report, 'scenes').counts).toMatchObject({ nodes: 1, unparsed: 0 });
    expect(step(report, 'consolidation').counts).toMatchObject({ clusters: 1, refused: 0 });
    expect(step(report, 'diary').counts).toEqual({ written: 1, lines: 3 });
    expect(asked(from)[0]).toContain('Why it is not a scene:\n- not JSON: ');
    expect(asked(from)[0]).toContain(`The note:\n${mended}`);
    expect(asked(from)[1]).toContain('The note:\n{"action": "???"}');
    const notes = await patrol.sql(
      `SELECT id::text, content, parse_failed, repair_tried_at IS NOT NULL AS offered,
              processed_at IS NOT NULL AS processed
         FROM notes WHERE agent = 'eve' ORDER BY id`,
    );
    expect(notes).toEqual([
      { id: a.noteId, content: mended, parse_failed: false, offered: true, processed: true },
      {
        id: b.noteId,
        content: '[PARSE_FAILED] {"action": "???"}',
        parse_failed: true,
        offered: true,
        processed: false,
      },
    ]);
    const { feeling: _none, ...stored } = scene;
    expect(
      await patrol.sql(`SELECT scene, source_note_id::text FROM memory_nodes WHERE agent = 'eve'`),
    ).toEqual([{ scene: stored, source_note_id: a.noteId }]);

    // The note the model could not mend is not offered again (and with no scene note made
    // into a node, nothing else is asked either).
    const again = server.requests.length;
    const next = await run('eve');
    expect(step(next, 'repair')).toMatchObject({ skipped: true, reason: 'no broken scenes' });
    expect(step(next, 'think')).toMatchObject({ skipped: true, reason: 'no scene notes this run' });
    expect(asked(again)).toEqual([]);
  });

  it('refuses a diary and think notes of the wrong shape, and keeps none', async () => {
    await addScene('zed', { action: 'watched the rain from the window', actors: ['me'] });
    server.script(
      { kind: 'content', content: JSON.stringify({ merges: [], makeDead: [] }) },
      { kind: 'content', content: 'Only one line.' },
      { kind: 'content', content: 'not JSON at all' },
    );

    const report = await run('zed');

    expect(step(report, 'diary').counts).toEqual({ written: 0, refused: 1 });
    expect(step(report, 'think').counts).toEqual({ written: 0, refused: 1 });
    expect(await patrol.count(`SELECT count(*) AS n FROM diary WHERE agent = 'zed'`)).toBe(0);
    expect(await patrol.count(`SELECT count(*) AS n FROM think_notes WHERE agent = 'zed'`)).toBe(0);
  });
});
