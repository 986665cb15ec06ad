import type { Client } from 'pg';
import { embeddingText } from '@engram/being';
import { timestampFromDate, Rpcs, type ContextBuildResponse } from '@engram/contracts';
import { RpcError, type RpcClient } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadContextBuilderConfig } from '../context-builder.config';
import { ContextBuilderModule } from '../context-builder.module';

const NOW = new Date('2026-11-22T09:30:00Z');
const TENANT = 'acme';

const OPS_PROFILE = {
  agent: 'ops',
  name: 'Ada',
  personality: 'Calm and precise.',
  job: 'Run deployments for the platform team.',
  userName: 'Sam',
  tools: ['shell', 'calendar'],
};

const DEPLOY_SKILL = `---
name: deploy
description: how we ship
triggers:
  keywords: [deploy]
  patterns: ["blue\\\\s+cluster"]
---
Run \`make ship\`, then watch the dashboard.
`;

/** Inserts a conversation's messages as ingest would have stored them; returns their ids in order. */
async function seedConversation(
  admin: Client,
  agent: string,
  sessionKey: string,
  lines: Array<[string, string]>,
  startAt: Date,
): Promise<{ id: string; messageIds: string[] }> {
  const conversation = await admin.query(
    `INSERT INTO conversations (tenant_id, agent, session_key, message_count) VALUES ($1, $2, $3, $4) RETURNING id::text`,
    [TENANT, agent, sessionKey, lines.length],
  );
  const id = conversation.rows[0].id as string;
  const messageIds: string[] = [];
  for (const [i, [role, content]] of lines.entries()) {
    const row = await admin.query(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9) RETURNING id::text`,
      [
        TENANT,
        id,
        agent,
        `${sessionKey}-t${i}`,
        i + 1,
        role,
        content,
        Math.ceil(content.length / 4),
        new Date(startAt.getTime() + i * 60_000),
      ],
    );
    messageIds.push(row.rows[0].id);
  }
  return { id, messageIds };
}

/** mem.rpc.context.build against real NATS, Postgres, retrieval and Gerty. */
describe('context build (real NATS, Postgres, retrieval)', () => {
  let cb: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let current: { id: string; messageIds: string[] };
  let other: { id: string; messageIds: string[] };
  let older: { id: string; messageIds: string[] };
  let compactionId: string;

  const build = (request: Record<string, unknown>) =>
    rpc.call(
      Rpcs.contextBuild,
      { agent: 'ops', asOf: timestampFromDate(NOW), ...request },
      { tenantId: TENANT, timeoutMs: 15_000 },
    );

  const failureOf = async (request: Record<string, unknown>): Promise<RpcError> => {
    try {
      await build(request);
    } catch (error) {
      if (error instanceof RpcError) return error;
      throw error;
    }
    throw new Error('expected the build to fail');
  };

  const layer = (response: ContextBuildResponse, name: string) =>
    response.blocks.filter((b) => b.layer === name);

  beforeAll(async () => {
    cb = await startServiceUnderTest({
      label: 'context-build',
      loadConfig: loadContextBuilderConfig,
      module: (config) => ContextBuilderModule.register(config),
      processes: [
        { name: 'gerty', env: { LOG_LEVEL: 'warn' } },
        { name: 'retrieval', env: { LOG_LEVEL: 'warn' } },
        // A being's recall during chat (mem.rpc.being.recall); no patrol runs of its own.
        { name: 'patrol', env: { LOG_LEVEL: 'warn', PATROL_EVERY_MS: '0' } },
      ],
    });
    ({ rpc, admin } = cb);

    await rpc.call(Rpcs.agentsPut, OPS_PROFILE, { tenantId: TENANT });
    await rpc.call(
      Rpcs.workspacePut,
      {
        agent: 'ops',
        documents: [
          { name: 'SOUL.md', content: 'Be candid. Prefer small steps.' },
          { name: 'USER.md', content: 'Sam leads the platform team.' },
          { name: 'memory/2026-11-22.md', content: 'Billing freeze lifted at 09:00.' },
          { name: 'memory/2026-11-21.md', content: 'Billing freeze in place.' },
        ],
      },
      { tenantId: TENANT },
    );
    await rpc.call(
      Rpcs.skillsPut,
      { agent: 'ops', files: [{ name: 'deploy.md', markdown: DEPLOY_SKILL }] },
      { tenantId: TENANT },
    );

    older = await seedConversation(
      admin,
      'ops',
      'older',
      [
        ['user', 'Where does billing run these days?'],
        ['assistant', 'Billing runs on the blue cluster since the October migration.'],
      ],
      new Date('2026-10-01T10:00:00Z'),
    );
    current = await seedConversation(
      admin,
      'ops',
      'today',
      [
        ['user', 'Morning! Long weekend?'],
        ['assistant', 'Quiet one. What is first?'],
        ['user', 'Remind me what we changed in the pipeline.'],
        ['assistant', 'We added a canary stage.'],
        ['user', 'Good. Anything blocking releases?'],
        ['assistant', 'Nothing that I know of.'],
      ],
      new Date('2026-11-22T08:00:00Z'),
    );
    other = await seedConversation(
      admin,
      'ops',
      'elsewhere',
      [['user', 'Unrelated thread about lunch.']],
      new Date('2026-11-22T07:00:00Z'),
    );
    // The first two messages of today's conversation were compacted into a summary.
    await admin.query(`UPDATE messages SET compacted_at = now() WHERE id = ANY($1::bigint[])`, [
      current.messageIds.slice(0, 2),
    ]);
    compactionId = (
      await admin.query(
        `INSERT INTO compactions (tenant_id, conversation_id, agent, content, first_message_id, last_message_id, message_count, compacted_tokens, token_estimate, earliest_at, latest_at, model)
         VALUES ($1, $2, 'ops', 'Ada and Sam greeted each other after a quiet weekend.', $3, $4, 2, 12, 12, '2026-11-22T08:00Z', '2026-11-22T08:01Z', 'engram-local') RETURNING id::text`,
        [TENANT, current.id, current.messageIds[0], current.messageIds[1]],
      )
    ).rows[0].id;
    await admin.query(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, valid_from, valid_to)
       VALUES ($1, 'ops', 'Deploys need a change ticket.', 'decision', 'sticky', 9, 'saved', 'k1', '2026-01-01', NULL),
              ($1, 'ops', 'Sam is allergic to peanuts.', 'fact', 'sticky', 6, 'saved', 'k2', '2026-01-02', NULL),
              ($1, 'ops', 'Deploys happen on Tuesdays.', 'decision', 'sticky', 9, 'saved', 'k3', '2025-01-01', '2025-06-01'),
              ($1, 'ops', 'Sam likes green tea.', 'preference', 'user_preference', 5, 'saved', 'k4', '2026-01-03', NULL)`,
      [TENANT],
    );
  }, 120_000);

  afterAll(() => cb?.stop());

  it('builds every layer from the store, in order, within the model ceiling', async () => {
    const response = await build({
      conversationId: current.id,
      currentMessage: 'Can you deploy billing to the blue cluster today?',
    });
    expect([...new Set(response.blocks.map((b) => b.layer))]).toEqual([
      'identity',
      'workspace',
      'tools',
      'sticky_facts',
      'memory',
      'skills',
      'compaction',
      'recent',
    ]);
    expect(layer(response, 'identity')[0]!.text).toBe(
      "You are Ada. Calm and precise.\nYour job: Run deployments for the platform team.\nToday is Sunday, 22 November 2026 (2026-11-22).\nThe user's name is Sam.",
    );
    const workspace = layer(response, 'workspace')
      .map((b) => b.text)
      .join('\n');
    expect(workspace).toContain('Billing freeze lifted');
    expect(workspace).not.toContain('freeze in place');
    expect(layer(response, 'tools')[0]!.text).toBe('Tools you can use:\n- calendar\n- shell');
    // Only sticky facts still in force; the closed one and the preference stay out.
    expect(layer(response, 'sticky_facts')[0]!.text).toBe(
      'Always keep in mind:\n[STICKY] Deploys need a change ticket.\n[STICKY] Sam is allergic to peanuts.',
    );
    // Retrieval found the older conversation's answer.
    const memory = layer(response, 'memory')[0]!;
    expect(memory.sourceIds).toContain(`message:${older.messageIds[1]}`);
    expect(memory.text).toContain('[MEMORY] [2026-10-01] Billing runs on the blue cluster');
    // Beside the hits, the agent's other facts in force, newest first (layer 4 as designed).
    expect(memory.text.split('\n').at(-1)).toBe('[MEMORY] [2026-01-03] Sam likes green tea.');
    expect(layer(response, 'skills')[0]!.sourceIds).toEqual(['skill:deploy']);
    expect(layer(response, 'compaction')[0]).toMatchObject({
      text: 'Previous conversation summary (2026-11-22T08:00Z – 2026-11-22T08:01Z):\nAda and Sam greeted each other after a quiet weekend.',
      sourceIds: [`compaction:${compactionId}`],
    });
    // The compacted messages give way to their summary.
    expect(layer(response, 'recent').map((b) => [b.role, b.text])).toEqual([
      ['user', 'Remind me what we changed in the pipeline.'],
      ['assistant', 'We added a canary stage.'],
      ['user', 'Good. Anything blocking releases?'],
      ['assistant', 'Nothing that I know of.'],
    ]);
    expect(response).toMatchObject({
      ceilingTokens: 6144,
      model: '',
      exactTokens: false,
      conversationId: current.id,
    });
    // The seeded messages have no vectors yet: retrieval answered from full text, and the prompt says so.
    expect(response.degradedReason).toMatch(/^memory search degraded: /);
    expect(response.totalTokens).toBe(response.blocks.reduce((s, b) => s + b.tokens, 0));
    expect(response.totalTokens + response.currentMessageTokens).toBeLessThanOrEqual(response.ceilingTokens);
  });

  it('gives the same blocks for the same store and request', async () => {
    const request = {
      conversationId: current.id,
      currentMessage: 'Can you deploy billing to the blue cluster today?',
    };
    expect(await build(request)).toEqual(await build(request));
  });

  it('builds the prompt as of a past moment: nothing said after it, facts as they stood then', async () => {
    const at = (iso: string) => timestampFromDate(new Date(iso));
    // Between the compacted greeting and the rest of the morning.
    const morning = await build({
      conversationId: current.id,
      currentMessage: 'What did we change?',
      asOf: at('2026-11-22T08:02:30Z'),
    });
    expect(layer(morning, 'compaction')[0]!.sourceIds).toEqual([`compaction:${compactionId}`]);
    expect(layer(morning, 'recent').map((b) => b.text)).toEqual([
      'Remind me what we changed in the pipeline.',
    ]);
    // Before the compacted messages were all said, there is no compaction yet: they are recent.
    const early = await build({
      conversationId: current.id,
      currentMessage: 'hi',
      asOf: at('2026-11-22T08:00:30Z'),
    });
    expect(layer(early, 'compaction')).toEqual([]);
    expect(layer(early, 'recent').map((b) => b.text)).toEqual(['Morning! Long weekend?']);

    // Early 2025: the decision in force then (closed since) and nothing said later, remembered or recent.
    const past = await build({
      conversationId: current.id,
      currentMessage: 'Where does billing run these days?',
      asOf: at('2025-03-01T12:00:00Z'),
    });
    expect(layer(past, 'identity')[0]!.text).toContain('Today is Saturday, 1 March 2025 (2025-03-01).');
    expect(layer(past, 'sticky_facts')[0]!.text).toBe(
      'Always keep in mind:\n[STICKY] Deploys happen on Tuesdays.',
    );
    expect(past.blocks.map((b) => b.text).join('\n')).not.toContain('green tea');
    expect(layer(past, 'recent')).toEqual([]);
    expect(layer(past, 'compaction')).toEqual([]);
    const remembered = [...layer(past, 'memory'), ...past.cut.filter((c) => c.layer === 'memory')].flatMap(
      (b) => b.sourceIds,
    );
    expect(remembered.filter((ref) => ref.startsWith('message:'))).toEqual([]);
    expect(past.blocks.map((b) => b.text).join('\n')).not.toMatch(/Billing freeze|blue cluster since/);
    // The same question now remembers the October answer.
    const now = await build({
      conversationId: current.id,
      currentMessage: 'Where does billing run these days?',
    });
    expect(layer(now, 'memory')[0]!.sourceIds).toContain(`message:${older.messageIds[1]}`);
  });

  it('keeps the prefix hash when only the conversation changes', async () => {
    const a = await build({ conversationId: current.id, currentMessage: 'deploy please' });
    const b = await build({ sessionKey: 'elsewhere', currentMessage: 'what is for lunch?' });
    expect(b.conversationId).toBe(other.id);
    expect(layer(b, 'recent').map((x) => x.text)).toEqual(['Unrelated thread about lunch.']);
    expect(b.prefixHash).toBe(a.prefixHash);
    const c = await build({
      conversationId: current.id,
      currentMessage: 'deploy please',
      asOf: timestampFromDate(new Date('2026-11-23T09:00:00Z')),
    });
    expect(c.prefixHash).not.toBe(a.prefixHash);
  });

  it('builds for a session not started yet, and counts exactly for a model with a public tokenizer', async () => {
    const response = await build({
      sessionKey: 'brand-new',
      currentMessage: 'hello',
      model: 'gpt-4o',
      budgetTokens: 2000,
    });
    expect(response).toMatchObject({
      ceilingTokens: 2000,
      exactTokens: true,
      model: 'gpt-4o',
      conversationId: '',
    });
    expect(layer(response, 'recent')).toEqual([]);
    const capped = await build({ currentMessage: 'hello', budgetTokens: 1_000_000 });
    expect(capped.ceilingTokens).toBe(6144);
  });

  it('answers bad requests with clear errors', async () => {
    const unknown = await failureOf({ agent: 'nobody', currentMessage: 'hi' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.message).toMatch(/agent nobody is unknown/);
    const tooSmall = await failureOf({ currentMessage: 'hi', budgetTokens: 10 });
    expect(tooSmall.code).toBe('FAILED_PRECONDITION');
    expect(tooSmall.message).toMatch(
      /a budget of 10 tokens cannot hold the identity and the current message/,
    );
    expect(tooSmall.details['requiredTokens']).toBeGreaterThan(10);
    expect(await failureOf({ agent: 'bad agent' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [
          { field: 'agent', description: 'agent must be 1-64 letters, digits, "_" or "-" (got "bad agent")' },
        ],
      },
    });
    expect((await failureOf({ conversationId: '999999' })).code).toBe('NOT_FOUND');
    expect((await failureOf({ budgetTokens: -5 })).code).toBe('INVALID_ARGUMENT');
    await admin.query(`INSERT INTO agents (tenant_id, agent) VALUES ($1, 'intruder')`, [TENANT]);
    expect((await failureOf({ agent: 'intruder', conversationId: current.id })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  /** A being's two roots (self-parented, ids drawn per row) and sub-clusters by name under a parent's name. */
  async function seedClusters(
    agent: string,
    subClusters: Array<[name: string, parent: string]>,
  ): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    const roots = await admin.query(
      `INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
       SELECT n.id, $1, $2, n.name, n.root, n.id
         FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id, r.name, r.root
                 FROM (VALUES ('Business', 'business'), ('Private', 'private')) r (name, root)) n
       RETURNING id::text, name`,
      [TENANT, agent],
    );
    for (const r of roots.rows) ids[r.name] = r.id;
    for (const [name, parent] of subClusters) {
      ids[name] = (
        await admin.query(
          `INSERT INTO clusters (tenant_id, agent, name, parent_id) VALUES ($1, $2, $3, $4) RETURNING id::text`,
          [TENANT, agent, name, ids[parent]],
        )
      ).rows[0].id;
    }
    return ids;
  }

  it('gives a scene-memory agent (by its profile) its persona prefix, snapshot pair and latest scenes', async () => {
    await rpc.call(
      Rpcs.agentsPut,
      { agent: 'ops', name: 'Ada', userName: 'Sam', tools: ['shell'], sceneMemory: true },
      { tenantId: TENANT },
    );
    const clusters = await seedClusters('ops', [
      ['Family', 'Private'],
      ['Cooking', 'Private'],
      ['Kids', 'Family'],
    ]);
    const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
    const node = async (cluster: string, scene: object, status: string, lastActivated: Date | null) =>
      (
        await admin.query(
          `INSERT INTO memory_nodes (tenant_id, agent, scene, cluster_id, status, last_activated)
           VALUES ($1, 'ops', $2, $3, $4, $5) RETURNING id::text`,
          [TENANT, JSON.stringify(scene), clusters[cluster], status, lastActivated],
        )
      ).rows[0].id as string;
    const placed = ['Family', 'Family', 'Family', 'Cooking', 'Cooking', 'Private', 'Business'];
    const activated: string[] = [];
    for (const [i, cluster] of placed.entries()) {
      activated.push(
        await node(
          cluster,
          // The first dated as a being may date it: a label of its own, which places it nowhere in time.
          {
            action: `what happened ${i}`,
            actors: ['Sam'],
            setting: `Scene ${i}`,
            ...(i === 0 && { when: ['Day7'] }),
          },
          'active',
          hoursAgo(7 - i),
        ),
      );
    }
    await node('Family', { action: 'A dead memory.', actors: ['Sam'] }, 'dead', hoursAgo(0.1));
    const dying = await node(
      'Kids',
      { action: 'Fading memory.', actors: ['Sam'], when: ['2026-11-02'], dialogue: ['Bye!'] },
      'dying',
      hoursAgo(0.5),
    );
    await node('Kids', { action: 'Never recalled.', actors: ['Sam'] }, 'active', null);
    // Recalled long before the others, about a day to come.
    await node(
      'Cooking',
      { action: 'The winter party.', actors: ['Sam'], when: ['2026-12-01'] },
      'dying',
      hoursAgo(8),
    );
    for (const statement of [
      `INSERT INTO think_notes (tenant_id, agent, content, superseded_at) VALUES
          ($1, 'ops', 'Old thought.', now()), ($1, 'ops', 'Sam prefers morning deploys.', NULL)`,
      `INSERT INTO partner_rules (tenant_id, agent, rule, enabled) VALUES
          ($1, 'ops', 'Never deploy on Fridays.', true), ($1, 'ops', 'Always deploy on Fridays.', false)`,
      `INSERT INTO user_preferences (tenant_id, agent, key, value) VALUES
          ($1, 'ops', 'tea', 'green'), ($1, 'ops', 'answers', 'short')`,
      `INSERT INTO relationships (tenant_id, agent, person, relation, notes) VALUES
          ($1, 'ops', 'Kim', 'manager', 'Wants weekly updates.')`,
      `INSERT INTO notes (tenant_id, agent, kind, content, due_at, read_at, parse_failed, created_at) VALUES
          ($1, 'ops', 'note', 'Kim asked for a status update.', NULL, NULL, false, '2026-11-22T06:00Z'),
          ($1, 'ops', 'note', 'Already read note.', NULL, '2026-11-22T06:20Z', false, '2026-11-22T06:10Z'),
          ($1, 'ops', 'todo', 'Renew the TLS certificate.', NULL, NULL, false, '2026-11-22T07:00Z'),
          ($1, 'ops', 'todo', 'Done todo.', NULL, '2026-11-22T07:20Z', false, '2026-11-22T07:10Z'),
          ($1, 'ops', 'reminder', 'Change freeze starts.', '2026-11-24T17:00Z', NULL, false, '2026-11-22T08:00Z'),
          ($1, 'ops', 'knowledge', 'The blue cluster runs Postgres 15.', NULL, NULL, false, '2026-11-01T08:00Z'),
          ($1, 'ops', 'scene', '[PARSE_FAILED] not a scene', NULL, NULL, true, '2026-11-22T08:30Z')`,
      `INSERT INTO diary (tenant_id, agent, day, content) VALUES
          ($1, 'ops', '2026-11-20', 'Shipped search.'), ($1, 'ops', '2026-11-16', 'Planned the week.'),
          ($1, 'ops', '2026-11-15', 'Too old.'), ($1, 'ops', '2026-11-01', 'Ancient entry.'),
          ($1, 'ops', '2026-11-23', 'From tomorrow.')`,
    ])
      await admin.query(statement, [TENANT]);
    try {
      const response = await build({ conversationId: current.id, currentMessage: 'status?' });
      expect([...new Set(response.blocks.map((b) => b.layer))]).toEqual([
        'identity',
        'persona',
        'workspace',
        'sticky_facts',
        'memory', // no hit for "status?": the agent's other facts
        'scenes',
        'compaction',
        'snapshot',
        'recent',
      ]);
      // No soul row: SOUL.md stands in. Superseded think notes and disabled rules stay out.
      expect(layer(response, 'persona')[0]!.text).toBe(
        [
          '## Soul\nBe candid. Prefer small steps.',
          '## Think notes\n- Sam prefers morning deploys.',
          '## Partner rules\n- Never deploy on Fridays.',
          '## User preferences\n- answers: short\n- tea: green',
          '## Relationships\n- Kim — manager — Wants weekly updates.',
          '## Tools\n- shell',
          // Active nodes, each cluster with its sub-clusters'; the dying and the dead do not count.
          '## Map\nBusiness (1)\nPrivate (7): Cooking (2), Family (4) [Kids (1)]',
        ].join('\n\n'),
      );
      const snapshot = layer(response, 'snapshot');
      expect(snapshot.map((b) => b.role)).toEqual(['user', 'assistant']);
      // Read notes, scene notes, diary older than 7 days or after today stay out.
      expect(snapshot[0]!.text).toBe(
        [
          'Snapshot of my memory:',
          '## Unread notes\n- Kim asked for a status update.\n- TODO: Renew the TLS certificate.\n- Reminder (due 2026-11-24T17:00Z): Change freeze starts.',
          '## Knowledge\n- The blue cluster runs Postgres 15.',
          '## Diary, last 7 days\n- 2026-11-16: Planned the week.\n- 2026-11-20: Shipped search.',
        ].join('\n\n'),
      );
      // The five most recently activated, dying included, dead and never activated not.
      const scenes = layer(response, 'scenes')[0]!;
      expect(scenes.text).toBe(
        [
          'Recently active scenes:',
          '- 2026-11-02 — Fading memory. — "Bye!"',
          ...[6, 5, 4, 3].map((i) => `- Scene ${i} — what happened ${i}`),
        ].join('\n'),
      );
      expect(scenes.sourceIds).toEqual([dying, ...activated.slice(3).reverse()].map((id) => `scene:${id}`));

      // Earlier that morning: the notes written by then and unread then, the scenes recalled by
      // then and dated no later than that day ("Day7" is no date: kept); the persona as it is.
      const dawn = await build({
        conversationId: current.id,
        currentMessage: 'status?',
        asOf: timestampFromDate(new Date('2026-11-22T06:15:00Z')),
      });
      expect(layer(dawn, 'persona')).toEqual(layer(response, 'persona'));
      expect(layer(dawn, 'snapshot')[0]!.text).toContain(
        '## Unread notes\n- Kim asked for a status update.\n- Already read note.\n\n## Knowledge',
      );
      expect(layer(dawn, 'scenes')[0]!.sourceIds).toEqual(
        activated
          .slice(0, 4)
          .reverse()
          .map((id) => `scene:${id}`),
      );

      // Later that day, with a note read and another scene recalled: a new snapshot and new
      // scenes behind the same persona prefix.
      await admin.query(
        `UPDATE notes SET read_at = '2026-11-22T12:00Z' WHERE agent = 'ops' AND content LIKE 'Kim asked%'`,
      );
      await admin.query(`UPDATE memory_nodes SET last_activated = $1 WHERE id = $2`, [
        new Date(NOW.getTime() + 3_600_000),
        activated[0],
      ]);
      const later = await build({
        conversationId: current.id,
        currentMessage: 'anything new?',
        asOf: timestampFromDate(new Date('2026-11-22T20:00:00Z')),
      });
      expect(later.prefixHash).toBe(response.prefixHash);
      expect(layer(later, 'persona')).toEqual(layer(response, 'persona'));
      expect(layer(later, 'snapshot')[0]!.text).not.toContain('Kim asked');
      expect(layer(later, 'scenes')[0]!.sourceIds[0]).toBe(`scene:${activated[0]}`);
    } finally {
      await rpc.call(Rpcs.agentsPut, OPS_PROFILE, { tenantId: TENANT });
    }
  });

  it('takes an agent with a beings row for a scene-memory agent, whatever its profile, and shows its soul', async () => {
    await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ($1, 'kit')`, [TENANT]);
    await seedClusters('kit', [['Work', 'Business']]);
    await admin.query(
      `INSERT INTO souls (tenant_id, agent, personality, voice, "values", examples)
       VALUES ($1, 'kit', 'Playful and warm.', 'Short sentences.', '{honesty,care}', '{"Morning! Coffee first?"}')`,
      [TENANT],
    );
    await admin.query(
      `INSERT INTO workspace_documents (tenant_id, agent, name, kind, content) VALUES ($1, 'kit', 'SOUL.md', 'soul', 'Old soul file.')`,
      [TENANT],
    );
    // No profile and no conversation: known as a being.
    const response = await build({ agent: 'kit', sessionKey: 'first', currentMessage: 'hi' });
    expect(layer(response, 'identity')[0]!.text).toMatch(/^You are kit\./);
    expect(layer(response, 'persona')[0]!.text).toBe(
      [
        '## Soul\nPersonality: Playful and warm.\nVoice: Short sentences.\nValues:\n- honesty\n- care\nExamples of my voice:\n- Morning! Coffee first?',
        '## Map\nBusiness (0): Work (0)\nPrivate (0)',
      ].join('\n\n'),
    );
    // The soul row replaces SOUL.md, which is not shown twice either.
    expect(response.blocks.map((b) => b.text).join('\n')).not.toContain('Old soul file.');
    expect(layer(response, 'snapshot')).toEqual([]);
    expect(layer(response, 'scenes')).toEqual([]);

    // A profile that says no scene memory does not undo the beings row.
    await rpc.call(Rpcs.agentsPut, { agent: 'kit', name: 'Kit', sceneMemory: false }, { tenantId: TENANT });
    const profiled = await build({ agent: 'kit', sessionKey: 'first', currentMessage: 'hi' });
    expect(layer(profiled, 'persona')).toHaveLength(1);
  });

  it("recalls a being's scenes like the current message, at the head of its scenes block, counted recalled", async () => {
    await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ($1, 'mia')`, [TENANT]);
    const clusters = await seedClusters('mia', [['Kitchen', 'Private']]);
    const written = { when: [], dialogue: [], sensory: [] };
    const scene = {
      action: 'baked sourdough bread with Sam in the kitchen',
      actors: ['Sam'],
      feeling: 'warm',
      ...written,
    };
    const other = { action: 'filed the quarterly tax return', actors: ['me'], feeling: 'tired', ...written };
    const embedded = await rpc.call(
      Rpcs.gertyEmbed,
      { texts: [embeddingText(scene, scene.feeling), embeddingText(other, other.feeling)] },
      { timeoutMs: 10_000 },
    );
    const ids: string[] = [];
    for (const [i, s] of [scene, other].entries())
      ids.push(
        (
          await admin.query(
            `INSERT INTO memory_nodes (tenant_id, agent, scene, feeling, cluster_id, status, embedding, embedding_model, last_activated)
             VALUES ($1, 'mia', $2, $3, $4, 'active', $5::halfvec, $6, $7) RETURNING id::text`,
            [
              TENANT,
              JSON.stringify(s),
              s.feeling,
              clusters['Kitchen'],
              `[${embedded.vectors[i]!.values.join(',')}]`,
              embedded.model,
              new Date(NOW.getTime() - (i + 1) * 3_600_000),
            ],
          )
        ).rows[0].id,
      );
    const response = await build({
      agent: 'mia',
      sessionKey: 'kitchen',
      currentMessage: 'Shall we bake sourdough bread again?',
      asOf: undefined,
    });
    const scenes = layer(response, 'scenes')[0]!;
    const recalled = /^- Recalled just now: <memory>(.*)<\/memory>$/.exec(scenes.text.split('\n')[1]!);
    // Fragments come back shuffled (memories return unsorted).
    expect(recalled?.[1]!.split(' / ').sort()).toEqual([scene.action, 'warm']);
    expect(scenes.sourceIds[0]).toBe(`scene:${ids[0]}`);
    expect(response.degraded).toBe(false);
    const counts = await admin.query(
      `SELECT id::text, reactivation_count FROM memory_nodes WHERE agent = 'mia' ORDER BY id`,
    );
    expect(counts.rows).toEqual([
      { id: ids[0], reactivation_count: 1 },
      { id: ids[1], reactivation_count: 0 },
    ]);

    // A prompt for a past moment recalls nothing, and counts nothing.
    const past = await build({ agent: 'mia', sessionKey: 'kitchen', currentMessage: 'Sourdough bread?' });
    expect(layer(past, 'scenes')[0]!.text).not.toContain('Recalled just now');

    // The patrol down: the prompt goes without recalled scenes, and says why.
    const patrol = cb.process('patrol');
    patrol.kill();
    await patrol.exited;
    const degraded = await build({
      agent: 'mia',
      sessionKey: 'kitchen',
      currentMessage: 'Shall we bake sourdough bread again?',
      asOf: undefined,
    });
    expect(degraded.degradedReason).toMatch(/recalled scenes left out: /);
    expect(layer(degraded, 'scenes')[0]!.text).not.toContain('Recalled just now');
  });

  it('still builds when retrieval is down, without memory, and says so', async () => {
    const retrieval = cb.process('retrieval');
    retrieval.kill();
    await retrieval.exited;
    const response = await build({
      conversationId: current.id,
      currentMessage: 'Can you deploy billing to the blue cluster today?',
    });
    expect(response.degraded).toBe(true);
    expect(response.degradedReason).toMatch(/relevant memory left out: UNAVAILABLE/);
    // No hits; the agent's other facts come from the store, not from retrieval.
    expect(layer(response, 'memory').map((b) => b.text)).toEqual([
      'Relevant memory from earlier conversations:\n[MEMORY] [2026-01-03] Sam likes green tea.',
    ]);
    expect(layer(response, 'recent')).toHaveLength(4);
  });
});
