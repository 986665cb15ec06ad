import type { Client } from 'pg';

/** How much memory a seeded tenant holds. */
export interface TenantShape {
  readonly messages: number;
  readonly agents: number;
  readonly conversations: number;
  readonly facts: number;
}

/**
 * One tenant's memory, as ingest and the workers would have left it: `conversations` spread over
 * the agents, `messages` spread over the conversations (a message a minute, the counters of each
 * conversation set from its messages), `facts` over the conversations (one in five closed), a
 * profile and a [STATE:] value per agent, and a being with 200 scene nodes for the first agent.
 */
export async function seedTenant(admin: Client, tenant: string, flags: TenantShape): Promise<void> {
  const agent = (i: string) => `'agent-' || ((${i}) % ${flags.agents})`;
  await admin.query(`INSERT INTO tenants (tenant_id) VALUES ($1)`, [tenant]);
  await admin.query(
    `INSERT INTO agents (tenant_id, agent, name, personality, job, tools, model)
     SELECT $1, 'agent-' || a, 'Agent ' || a, 'Calm and precise', 'Answers support tickets', '{web_search,calendar}', 'engram-local'
       FROM generate_series(0, $2::int - 1) a`,
    [tenant, flags.agents],
  );
  await admin.query(
    `INSERT INTO conversations (tenant_id, agent, session_key, channel, title)
     SELECT $1, ${agent('c')}, 'session-' || c, 'web', 'Conversation ' || c FROM generate_series(0, $2::int - 1) c`,
    [tenant, flags.conversations],
  );
  await admin.query(
    `WITH c AS (SELECT id, agent, row_number() OVER (ORDER BY id) - 1 AS n FROM conversations WHERE tenant_id = $1)
     INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
     SELECT $1, c.id, c.agent, 't' || m, m % 2, m, CASE WHEN m % 2 = 0 THEN 'user' ELSE 'assistant' END,
            'Message ' || m || ' about the ticket queue, the release notes and what the customer asked for.', 20,
            timestamptz '2026-01-01' + make_interval(mins => m)
       FROM generate_series(0, $2::int - 1) m JOIN c ON c.n = m % $3`,
    [tenant, flags.messages, flags.conversations],
  );
  await admin.query(
    `UPDATE conversations c SET message_count = s.n, token_estimate = s.tokens,
            first_message_at = s.first_at, last_message_at = s.last_at
       FROM (SELECT conversation_id, count(*) AS n, sum(token_estimate) AS tokens,
                    min(created_at) AS first_at, max(created_at) AS last_at
               FROM messages WHERE tenant_id = $1 GROUP BY conversation_id) s
      WHERE c.id = s.conversation_id`,
    [tenant],
  );
  await admin.query(
    `WITH c AS (SELECT id, agent, row_number() OVER (ORDER BY id) - 1 AS n FROM conversations WHERE tenant_id = $1)
     INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                        conversation_id, valid_from, valid_to, expires_at)
     SELECT $1, c.agent, 'Fact ' || f || ': the customer prefers answers by email before noon.',
            (ARRAY['preference','fact','event','relationship','decision','correction','task','general'])[f % 8 + 1],
            CASE WHEN f % 3 = 0 THEN 'sticky' ELSE 'project_context' END, f % 10 + 1, 'tag', 'tag:' || f,
            c.id, timestamptz '2026-01-01' + make_interval(mins => f),
            CASE WHEN f % 5 = 0 THEN timestamptz '2026-02-01' END,
            CASE WHEN f % 3 = 0 THEN NULL ELSE timestamptz '2027-01-01' END
       FROM generate_series(0, $2::int - 1) f JOIN c ON c.n = f % $3`,
    [tenant, flags.facts, flags.conversations],
  );
  await admin.query(
    `INSERT INTO state (tenant_id, agent, key, value, stated_at)
     SELECT $1, 'agent-' || a, 'mood', 'focused', now() FROM generate_series(0, $2::int - 1) a`,
    [tenant, flags.agents],
  );
  await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ($1, 'agent-0')`, [tenant]);
  const roots = await admin.query<{ id: string; root: string }>(
    `INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
       SELECT n.id, $1, 'agent-0', n.name, n.root, n.id
         FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id, r.name, r.root
                 FROM (VALUES ('Business', 'business'), ('Private', 'private')) r (name, root)) n
     RETURNING id::text, root`,
    [tenant],
  );
  await admin.query(
    `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene)
     SELECT $1, 'agent-0', $2, jsonb_build_object('action', 'Scene ' || s, 'actors', '[]'::jsonb)
       FROM generate_series(1, 200) s`,
    [tenant, roots.rows.find((r) => r.root === 'private')!.id],
  );
}
