import type { MigrationInterface, QueryRunner } from 'typeorm';

/** RFC 3339 in UTC with microseconds: how the protobuf JSON mapping writes a Timestamp. */
const rfc3339 = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The transactional outbox: an event is a row written in the same tenant transaction as
 * the change it announces, so a writer that dies between its commit and its publish
 * loses nothing — a relay publishes every row under its msg id, and a row JetStream has
 * stored leaves the outbox (the table only ever holds what is still to be published).
 *
 * Rows are confined to their tenant like every table, but the table is not FORCEd: the
 * relay reads every tenant's due rows only through the SECURITY DEFINER functions below
 * (as the owner), which hand out rows to publish and remove published ones, nothing else.
 * `msg_id` is unique, so announcing a change again while its event waits (a redelivery
 * after a crash) adds no second row; once published, JetStream's duplicate window drops
 * a repeat under the same msg id.
 *
 * It replaces `announced_at` on summaries and compactions: rows a crash left unannounced
 * move into the outbox here, as the JSON their events would have carried.
 */
export class Outbox1760000000011 implements MigrationInterface {
  name = 'Outbox1760000000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        subject text NOT NULL,
        msg_id text NOT NULL UNIQUE,
        payload bytea NOT NULL,
        traceparent text,
        tracestate text,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- When a relay may take the row: after its writer had its chance to publish it, or
        -- after the lease of the relay that took it, or after a failed attempt's backoff.
        due_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      );
      -- No index on due_at: the table holds only what is still to be published (a handful of
      -- rows, but for an outage), and every index costs each event an insert and a delete.
      ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;
      CREATE POLICY outbox_tenant_isolation ON outbox
        USING (tenant_id = engram_current_tenant())
        WITH CHECK (tenant_id = engram_current_tenant());

      -- Takes up to max_rows due rows of any tenant for one relay: each is leased (not due
      -- again) for lease_ms, so replicas never publish the same row at once.
      CREATE FUNCTION engram_outbox_claim(max_rows integer, lease_ms integer)
        RETURNS TABLE (id bigint, tenant_id text, subject text, msg_id text, payload bytea,
                       traceparent text, tracestate text, attempts integer)
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$
          UPDATE outbox o
             SET due_at = now() + make_interval(secs => lease_ms / 1000.0), attempts = o.attempts + 1
           WHERE o.id IN (SELECT d.id FROM outbox d WHERE d.due_at <= now()
                           ORDER BY d.due_at LIMIT max_rows FOR UPDATE SKIP LOCKED)
          RETURNING o.id, o.tenant_id, o.subject, o.msg_id, o.payload, o.traceparent, o.tracestate, o.attempts
        $$;

      -- JetStream stored these rows' messages (or their dead letters): they leave the outbox.
      -- The only delete the app role can do.
      CREATE FUNCTION engram_outbox_sent(ids bigint[])
        RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$ DELETE FROM outbox WHERE id = ANY(ids) $$;

      -- An attempt failed: due again after retry_ms.
      CREATE FUNCTION engram_outbox_failed(row_id bigint, error text, retry_ms integer)
        RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$
          UPDATE outbox
             SET last_error = left(error, 1000), due_at = now() + make_interval(secs => retry_ms / 1000.0)
           WHERE id = row_id
        $$;

      -- How many rows wait to be published, and since when the oldest does.
      CREATE FUNCTION engram_outbox_backlog()
        RETURNS TABLE (pending bigint, oldest timestamptz)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
        AS $$ SELECT count(*), min(created_at) FROM outbox $$;

      -- What a crash left unannounced before this migration: into the outbox, then the
      -- columns go. The owner reads every tenant's rows only here, for the copy.
      ALTER TABLE summaries NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE compactions NO FORCE ROW LEVEL SECURITY;
      INSERT INTO outbox (tenant_id, subject, msg_id, payload)
      SELECT s.tenant_id, 'mem.summary.created.' || s.tenant_id, 'summary:' || s.tenant_id || ':' || s.id || ':created',
             convert_to(jsonb_build_object(
               'tenantId', s.tenant_id, 'agent', s.agent, 'conversationId', s.conversation_id::text,
               'summaryId', s.id::text, 'depth', s.depth, 'earliestAt', ${rfc3339('s.earliest_at')},
               'latestAt', ${rfc3339('s.latest_at')}, 'messageCount', s.message_count, 'model', s.model)::text, 'UTF8')
        FROM summaries s WHERE s.announced_at IS NULL
      ON CONFLICT (msg_id) DO NOTHING;
      INSERT INTO outbox (tenant_id, subject, msg_id, payload)
      SELECT c.tenant_id, 'mem.compaction.created.' || c.tenant_id, 'compaction:' || c.tenant_id || ':' || c.id || ':created',
             convert_to(jsonb_build_object(
               'tenantId', c.tenant_id, 'agent', c.agent, 'conversationId', c.conversation_id::text,
               'compactionId', c.id::text, 'firstMessageId', coalesce(c.first_message_id::text, ''),
               'lastMessageId', c.last_message_id::text, 'messageCount', coalesce(c.message_count, 0),
               'compactedTokens', coalesce(c.compacted_tokens, 0), 'earliestAt', ${rfc3339('c.earliest_at')},
               'latestAt', ${rfc3339('c.latest_at')}, 'model', c.model, 'tokenEstimate', coalesce(c.token_estimate, 0),
               'factIds', to_jsonb(c.fact_ids::text[]))::text, 'UTF8')
        FROM compactions c WHERE c.announced_at IS NULL
      ON CONFLICT (msg_id) DO NOTHING;
      ALTER TABLE summaries FORCE ROW LEVEL SECURITY;
      ALTER TABLE compactions FORCE ROW LEVEL SECURITY;
      ALTER TABLE summaries DROP COLUMN announced_at;
      ALTER TABLE compactions DROP COLUMN announced_at;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      -- What the outbox announced (or will) counts as announced: nothing is announced twice.
      ALTER TABLE summaries ADD COLUMN announced_at timestamptz DEFAULT now();
      ALTER TABLE summaries ALTER COLUMN announced_at DROP DEFAULT;
      CREATE INDEX summaries_unannounced ON summaries (conversation_id) WHERE announced_at IS NULL;
      ALTER TABLE compactions ADD COLUMN announced_at timestamptz DEFAULT now();
      ALTER TABLE compactions ALTER COLUMN announced_at DROP DEFAULT;
      CREATE INDEX compactions_unannounced ON compactions (conversation_id) WHERE announced_at IS NULL;
      DROP FUNCTION engram_outbox_backlog();
      DROP FUNCTION engram_outbox_failed(bigint, text, integer);
      DROP FUNCTION engram_outbox_sent(bigint[]);
      DROP FUNCTION engram_outbox_claim(integer, integer);
      DROP TABLE outbox;
    `);
  }
}
