import type { Client } from 'pg';
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
      { agent: 'ops', now: timestampFromDate(NOW), ...request },
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
      ],
    });
    ({ rpc, admin } = cb);

    await rpc.call(Rpcs.agentPut, OPS_PROFILE, { tenantId: TENANT });
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
      Rpcs.skillPut,
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
      'Always keep in mind:\n- Deploys need a change ticket.\n- Sam is allergic to peanuts.',
    );
    // Retrieval found the older conversation's answer.
    const memory = layer(response, 'memory')[0]!;
    expect(memory.sourceIds).toContain(`message:${older.messageIds[1]}`);
    expect(memory.text).toContain('[2026-10-01] Billing runs on the blue cluster');
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

  it('keeps the prefix hash when only the conversation changes', async () => {
    const a = await build({ conversationId: current.id, currentMessage: 'deploy please' });
    const b = await build({ sessionKey: 'elsewhere', currentMessage: 'what is for lunch?' });
    expect(b.conversationId).toBe(other.id);
    expect(layer(b, 'recent').map((x) => x.text)).toEqual(['Unrelated thread about lunch.']);
    expect(b.prefixHash).toBe(a.prefixHash);
    const c = await build({
      conversationId: current.id,
      currentMessage: 'deploy please',
      now: timestampFromDate(new Date('2026-11-23T09:00:00Z')),
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

  it('gives a scene-memory agent its persona prefix, snapshot pair and latest scenes', async () => {
    await rpc.call(
      Rpcs.agentPut,
      { agent: 'ops', name: 'Ada', userName: 'Sam', tools: ['shell'], sceneMemory: true },
      { tenantId: TENANT },
    );
    await admin.query(
      `INSERT INTO agent_notes (tenant_id, agent, kind, content, day, read_at) VALUES
         ($1, 'ops', 'partner_rule', 'Never deploy on Fridays.', NULL, NULL),
         ($1, 'ops', 'note', 'Kim asked for a status update.', NULL, NULL),
         ($1, 'ops', 'note', 'Already read note.', NULL, now()),
         ($1, 'ops', 'diary', 'Shipped search.', '2026-11-20', NULL),
         ($1, 'ops', 'diary', 'Ancient entry.', '2026-10-01', NULL)`,
      [TENANT],
    );
    for (let i = 0; i < 7; i++) {
      await admin.query(
        `INSERT INTO memory_nodes (tenant_id, agent, title, content, last_activated_at) VALUES ($1, 'ops', $2, $3, $4)`,
        [TENANT, `Scene ${i}`, `what happened ${i}`, new Date(NOW.getTime() - (7 - i) * 3_600_000)],
      );
    }
    try {
      const response = await build({ conversationId: current.id, currentMessage: 'status?' });
      expect(layer(response, 'persona')[0]!.text).toMatch(
        /^## Soul\nBe candid[\s\S]*## Partner rules\n- Never deploy on Fridays\.[\s\S]*## Tools\n- shell/,
      );
      const snapshot = layer(response, 'snapshot');
      expect(snapshot.map((b) => b.role)).toEqual(['user', 'assistant']);
      expect(snapshot[0]!.text).toContain('Kim asked for a status update.');
      expect(snapshot[0]!.text).toContain('2026-11-20: Shipped search.');
      expect(snapshot[0]!.text).not.toMatch(/Already read|Ancient entry/);
      expect(layer(response, 'scenes')[0]!.text.split('\n').slice(1)).toEqual(
        [6, 5, 4, 3, 2].map((i) => `- Scene ${i}: what happened ${i}`),
      );
    } finally {
      await rpc.call(Rpcs.agentPut, OPS_PROFILE, { tenantId: TENANT });
    }
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
    expect(layer(response, 'memory')).toEqual([]);
    expect(layer(response, 'recent')).toHaveLength(4);
  });
});
