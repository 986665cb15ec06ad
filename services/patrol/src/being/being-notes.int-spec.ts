import { Rpcs, timestampDate, timestampFromDate, type RpcSpec } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest, rpcFailure } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';

const BREAD = {
  action: 'baked bread with Mia',
  actors: ['me', 'Mia'],
  when: ['2026-11-02'],
  setting: 'the kitchen',
  feeling: 'warm',
};

/** mem.rpc.being.scenes.add, .note.add, .notes.list and .notes.read against real NATS and Postgres. */
describe('a being’s notes (real Postgres and NATS)', () => {
  let patrol: ServiceUnderTest;
  let rpc: RpcClient;

  const failureOf = (spec: RpcSpec, request: Parameters<RpcClient['call']>[1], tenantId?: string) =>
    rpcFailure(rpc, spec, request, tenantId);
  const noteRow = async (id: string) =>
    (await patrol.sql<Record<string, unknown>>(`SELECT * FROM notes WHERE id = $1`, [id]))[0];
  const addNote = (agent: string, content: string, kind = '', tenantId = 'acme') =>
    rpc.call(Rpcs.beingNotesAdd, { agent, kind, content }, { tenantId });

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'being_notes',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
    });
    rpc = patrol.rpc;
  });

  afterAll(async () => {
    await patrol?.stop();
  });

  describe('scene notes', () => {
    it('stores a parsed scene with its importance, themes and emotion, and makes the agent a being', async () => {
      const text = JSON.stringify(BREAD);
      const reply = await rpc.call(
        Rpcs.beingScenesAdd,
        {
          agent: 'mia',
          scene: text,
          importance: 0.8,
          themes: ['baking', 'family'],
          emotion: { valence: 0.9, arousal: 0.3, dominance: 0.5, safety: 1, novelty: 0.1, trust: 0.8 },
        },
        { tenantId: 'acme' },
      );
      expect(reply).toMatchObject({ parseFailed: false, problems: [] });
      expect(await noteRow(reply.noteId)).toMatchObject({
        tenant_id: 'acme',
        agent: 'mia',
        kind: 'scene',
        content: text,
        scene: { ...BREAD, dialogue: [], sensory: [] },
        importance: expect.closeTo(0.8, 5),
        themes: ['baking', 'family'],
        emotion: { valence: 0.9, arousal: 0.3, dominance: 0.5, safety: 1, novelty: 0.1, trust: 0.8 },
        parse_failed: false,
        processed_at: null,
      });
      expect(
        await patrol.count(`SELECT count(*) AS n FROM beings WHERE tenant_id = 'acme' AND agent = 'mia'`),
      ).toBe(1);
      expect(
        await patrol.sql(
          `SELECT root FROM clusters WHERE tenant_id = 'acme' AND agent = 'mia' ORDER BY root`,
        ),
      ).toEqual([{ root: 'business' }, { root: 'private' }]);
    });

    it('keeps a scene given no importance or emotion as such: null, for the patrol to default', async () => {
      const reply = await rpc.call(
        Rpcs.beingScenesAdd,
        { agent: 'mia', scene: JSON.stringify({ action: 'walked', actors: ['me'] }) },
        { tenantId: 'acme' },
      );
      expect(await noteRow(reply.noteId)).toMatchObject({ importance: null, emotion: null, themes: [] });
    });

    it('keeps a scene that does not parse, marked [PARSE_FAILED], and says why', async () => {
      const broken = '{"actors": [], "when": [""]}';
      const reply = await rpc.call(
        Rpcs.beingScenesAdd,
        { agent: 'mia', scene: broken, themes: ['lost'] },
        { tenantId: 'acme' },
      );
      expect(reply.parseFailed).toBe(true);
      expect(reply.problems.join('\n')).toMatch(/^action: /m);
      expect(reply.problems.join('\n')).toMatch(/^when\.0/m);
      expect(await noteRow(reply.noteId)).toMatchObject({
        kind: 'scene',
        content: `[PARSE_FAILED] ${broken}`,
        scene: null,
        parse_failed: true,
        themes: ['lost'],
      });

      const notJson = await rpc.call(
        Rpcs.beingScenesAdd,
        { agent: 'mia', scene: 'we baked' },
        { tenantId: 'acme' },
      );
      expect(notJson).toMatchObject({ parseFailed: true, problems: [expect.stringMatching(/^not JSON: /)] });
      expect((await noteRow(notJson.noteId))!.content).toBe('[PARSE_FAILED] we baked');
    });

    it('refuses an empty scene or a bad importance with INVALID_ARGUMENT naming the field, storing nothing', async () => {
      const before = await patrol.count(`SELECT count(*) AS n FROM notes`);
      const error = await failureOf(Rpcs.beingScenesAdd, {
        agent: 'mia',
        scene: ' ',
        emotion: { valence: 3 },
      });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details['fieldViolations']).toEqual([
        { field: 'scene', description: 'scene is required' },
        { field: 'emotion.valence', description: 'emotion.valence must be between -1 and 1 (got 3)' },
      ]);
      expect(await patrol.count(`SELECT count(*) AS n FROM notes`)).toBe(before);
    });
  });

  describe('notes, TODOs, reminders and knowledge', () => {
    it('stores a note of each kind, a plain note by default, a reminder with its due time', async () => {
      const plain = await addNote('ada', 'Mia likes rye');
      expect(plain).toMatchObject({ kind: 'note', content: 'Mia likes rye', parseFailed: false });
      expect(plain.readAt).toBeUndefined();
      expect(plain.createdAt).toBeDefined();
      const due = new Date('2026-12-24T18:00:00Z');
      const reminder = await rpc.call(
        Rpcs.beingNotesAdd,
        { agent: 'ada', kind: 'reminder', content: 'call Mia', dueAt: timestampFromDate(due) },
        { tenantId: 'acme' },
      );
      expect(reminder.kind).toBe('reminder');
      expect(timestampDate(reminder.dueAt!)).toEqual(due);
      expect((await noteRow(reminder.id))!.due_at).toEqual(due);
      expect((await addNote('ada', 'buy flour', 'todo')).kind).toBe('todo');
      expect((await addNote('ada', 'rye needs a starter', 'knowledge')).kind).toBe('knowledge');
    });

    it('refuses a scene or unknown kind on note.add, naming the field', async () => {
      const error = await failureOf(Rpcs.beingNotesAdd, { agent: 'ada', kind: 'diary', content: 'x' });
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [
            {
              field: 'kind',
              description: 'kind must be one of note, todo, reminder, knowledge (got "diary")',
            },
          ],
        },
      });
    });
  });

  describe('listing and reading', () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      for (const [content, kind] of [
        ['first', 'note'],
        ['second', 'todo'],
        ['third', 'knowledge'],
        ['fourth', 'note'],
      ] as const)
        ids[content] = (await addNote('lister', content, kind)).id;
      ids['scene'] = (
        await rpc.call(
          Rpcs.beingScenesAdd,
          { agent: 'lister', scene: JSON.stringify(BREAD) },
          { tenantId: 'acme' },
        )
      ).noteId;
      // Another being of the same tenant, and the same agent name in another tenant.
      ids['other'] = (await addNote('other', 'not yours')).id;
      ids['globex'] = (await addNote('lister', 'globex note', 'note', 'globex')).id;
    });

    const list = (request: { kinds?: string[]; unreadOnly?: boolean; limit?: number }, agent = 'lister') =>
      rpc.call(Rpcs.beingNotesList, { agent, ...request }, { tenantId: 'acme' });
    const contents = async (request: Parameters<typeof list>[0]) =>
      (await list(request)).notes.map((n) => n.content);

    it('lists the being’s notes newest first, by kind, up to a limit', async () => {
      expect(await contents({})).toEqual([JSON.stringify(BREAD), 'fourth', 'third', 'second', 'first']);
      expect(await contents({ kinds: ['note', 'todo'] })).toEqual(['fourth', 'second', 'first']);
      expect(await contents({ kinds: ['scene'] })).toEqual([JSON.stringify(BREAD)]);
      expect(await contents({ limit: 2 })).toEqual([JSON.stringify(BREAD), 'fourth']);
    });

    it('marks notes read once: the count says how many were unread; others’ ids change nothing', async () => {
      const read = (noteIds: string[], tenantId = 'acme', agent = 'lister') =>
        rpc.call(Rpcs.beingNotesRead, { agent, noteIds }, { tenantId });
      expect((await read([ids['first']!, ids['third']!])).marked).toBe(2);
      expect((await read([ids['first']!, ids['third']!])).marked).toBe(0);
      expect((await read([ids['first']!, ids['second']!])).marked).toBe(1);
      // Another agent's note, another tenant's note, a note that does not exist.
      expect((await read([ids['other']!, ids['globex']!, '987654321'])).marked).toBe(0);
      expect(
        await patrol.sql(`SELECT read_at FROM notes WHERE id = ANY($1)`, [[ids['other'], ids['globex']]]),
      ).toEqual([{ read_at: null }, { read_at: null }]);
      // globex marking acme's note by id changes nothing either.
      expect((await read([ids['fourth']!], 'globex')).marked).toBe(0);

      expect(await contents({ unreadOnly: true })).toEqual([JSON.stringify(BREAD), 'fourth']);
      const [first] = (await list({ kinds: ['note'] })).notes.slice(-1);
      expect(first).toMatchObject({ content: 'first', readAt: expect.anything() });
    });

    it('keeps two beings of one tenant, and two tenants, apart', async () => {
      expect((await list({}, 'other')).notes.map((n) => n.content)).toEqual(['not yours']);
      const globex = await rpc.call(Rpcs.beingNotesList, { agent: 'lister' }, { tenantId: 'globex' });
      expect(globex.notes.map((n) => n.content)).toEqual(['globex note']);
      expect(
        (await rpc.call(Rpcs.beingNotesList, { agent: 'lister' }, { tenantId: 'initech' })).notes,
      ).toEqual([]);
    });

    it('refuses a bad list or read request, naming the field', async () => {
      expect((await failureOf(Rpcs.beingNotesList, { agent: 'lister', limit: 501 })).details).toEqual({
        fieldViolations: [{ field: 'limit', description: 'limit must be between 1 and 500 (got 501)' }],
      });
      expect((await failureOf(Rpcs.beingNotesRead, { agent: 'lister', noteIds: ['x'] })).details).toEqual({
        fieldViolations: [{ field: 'noteIds', description: '"x" is not a note id' }],
      });
    });
  });
});
