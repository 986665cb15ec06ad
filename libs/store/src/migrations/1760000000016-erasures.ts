import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * Erase, the one exception to the immutable transcript: a user's explicit request removes a
 * scope's messages (a conversation, an agent's, or the whole tenant's) and everything derived
 * from them. The app role still has no DELETE on any table. It erases only through
 * `engram_erase`, a SECURITY DEFINER function of the owner, which every FORCEd policy still
 * confines to the transaction's tenant (the unforced `beings` is filtered by tenant in it), and
 * which writes the audit entry in `erasures` in the same statement: nothing is erased unaudited.
 *
 * An entry names the scope, who asked, when and how many rows of each kind went, never what they
 * said. For a conversation it keeps the session key only until the conversation's turns are gone
 * from JetStream too (`streams_erased_at`): a crash in between leaves the entry unfinished, and
 * the next erase of the tenant finishes it.
 */
export class Erasures1760000000016 implements MigrationInterface {
  name = 'Erasures1760000000016';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE erasures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        -- No reference to tenants: an erase of a tenant that never stored anything is audited too.
        tenant_id text NOT NULL CHECK (tenant_id ~ '^[A-Za-z0-9_-]{1,64}$'),
        scope text NOT NULL CHECK (scope IN ('tenant', 'agent', 'conversation')),
        -- The agent erased, or the erased conversation's agent (NULL when it was not found).
        agent text,
        conversation_id bigint,
        -- apikey:<key id>, cli:<user>@<host>, or what a NATS client said.
        requested_by text NOT NULL CHECK (length(requested_by) BETWEEN 1 AND 200),
        requested_at timestamptz NOT NULL DEFAULT now(),
        -- Rows erased per kind ({"messages": 12, …}), then the stream messages once they are gone.
        counts jsonb NOT NULL,
        -- Until the conversation's turns are gone from JetStream (their subject lacks the conversation).
        session_key text,
        streams_erased_at timestamptz,
        CHECK ((scope = 'conversation') = (conversation_id IS NOT NULL)),
        CHECK (scope <> 'agent' OR agent IS NOT NULL),
        CHECK (session_key IS NULL OR streams_erased_at IS NULL)
      );
      CREATE INDEX erasures_of_tenant ON erasures (tenant_id, requested_at);
      CREATE INDEX erasures_unfinished ON erasures (tenant_id, id) WHERE streams_erased_at IS NULL;
      ${tenantIsolation('erasures')}

      -- Erases a scope of the transaction's tenant: a conversation (erase_conversation), an agent
      -- (erase_agent) or, both NULL, the whole tenant. Derived rows go with their sources: vectors
      -- and access counts of every erased item, summaries and compactions of the conversations,
      -- facts of the conversations or resting on their messages (of an agent or tenant: all its
      -- facts) — a fact they had superseded stays closed, without the link —, state stated in the
      -- messages (of an agent or tenant: all), and for an agent or the tenant its being memory
      -- whole (a scene has no link to the messages it recalls). Kept: the tenant, its settings,
      -- keys and secrets, and agents' profiles, workspace documents and skills (configuration
      -- put by their owner, not memory of a conversation). Answers the audit entry it wrote.
      CREATE FUNCTION engram_erase(erase_agent text, erase_conversation bigint, principal text)
        RETURNS TABLE (erasure_id bigint, erased_scope text, erased_agent text,
                       erased_session_key text, erased_counts jsonb, erased_at timestamptz)
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$
        #variable_conflict use_column
        DECLARE
          tenant text := engram_current_tenant();
          the_scope text := CASE WHEN erase_conversation IS NOT NULL THEN 'conversation'
                                 WHEN erase_agent IS NOT NULL THEN 'agent' ELSE 'tenant' END;
          the_agent text := erase_agent;
          the_session text;
          convs bigint[];
          msgs bigint[];
          sums bigint[];
          fcts bigint[];
          n bigint;
          notes_gone bigint := 0;
          -- Every kind is counted, 0 where the scope reaches none (a conversation has no being memory).
          tally jsonb := '{"sceneNodes": 0, "beingNotes": 0, "beings": 0}';
        BEGIN
          IF tenant IS NULL THEN
            RAISE EXCEPTION 'engram_erase: the transaction names no tenant';
          END IF;
          IF erase_agent IS NOT NULL AND erase_conversation IS NOT NULL THEN
            RAISE EXCEPTION 'engram_erase: name an agent or a conversation, not both';
          END IF;
          -- One erase of a tenant at a time: a second waits, then finds nothing left.
          PERFORM pg_advisory_xact_lock(hashtextextended('erase/' || tenant, 0));
          IF the_scope = 'conversation' THEN
            SELECT c.agent, c.session_key INTO the_agent, the_session
              FROM conversations c WHERE c.id = erase_conversation;
          END IF;
          -- The agents' fact writers first, as they lock (lockFactWriters): then the conversations,
          -- which a writer's new rows reference; a writer that comes after finds them gone.
          PERFORM pg_advisory_xact_lock(k.h)
             FROM (SELECT DISTINCT hashtextextended('facts/' || tenant || '/' || f.agent, 0) AS h
                     FROM facts f WHERE the_scope = 'tenant' OR f.agent = the_agent ORDER BY 1) k;
          SELECT coalesce(array_agg(x.id), '{}') INTO convs
            FROM (SELECT c.id FROM conversations c
                   WHERE the_scope = 'tenant' OR (the_scope = 'agent' AND c.agent = the_agent)
                      OR c.id = erase_conversation
                   FOR UPDATE) x;
          SELECT coalesce(array_agg(m.id), '{}') INTO msgs FROM messages m WHERE m.conversation_id = ANY(convs);
          SELECT coalesce(array_agg(s.id), '{}') INTO sums FROM summaries s WHERE s.conversation_id = ANY(convs);
          SELECT coalesce(array_agg(f.id), '{}') INTO fcts FROM facts f
           WHERE the_scope = 'tenant' OR (the_scope = 'agent' AND f.agent = the_agent)
              OR f.conversation_id = ANY(convs) OR f.source_message_ids && msgs;

          DELETE FROM embeddings e
           WHERE e.tenant_id = tenant
             AND ((e.item_kind = 'message' AND e.item_id = ANY(msgs))
               OR (e.item_kind = 'summary' AND e.item_id = ANY(sums))
               OR (e.item_kind = 'fact' AND e.item_id = ANY(fcts)));
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('vectors', n);
          DELETE FROM item_access a
           WHERE (a.item_kind = 'message' AND a.item_id = ANY(msgs))
              OR (a.item_kind = 'summary' AND a.item_id = ANY(sums))
              OR (a.item_kind = 'fact' AND a.item_id = ANY(fcts));
          UPDATE facts f SET superseded_by = NULL WHERE f.superseded_by = ANY(fcts) AND NOT f.id = ANY(fcts);
          DELETE FROM facts f WHERE f.id = ANY(fcts);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('facts', n);
          DELETE FROM state s
           WHERE the_scope = 'tenant' OR (the_scope = 'agent' AND s.agent = the_agent)
              OR s.source_message_id = ANY(msgs);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('stateEntries', n);
          DELETE FROM summary_sources ss WHERE ss.summary_id = ANY(sums);
          DELETE FROM summaries s WHERE s.id = ANY(sums);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('summaries', n);
          DELETE FROM compactions c WHERE c.conversation_id = ANY(convs);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('compactions', n);
          DELETE FROM messages m WHERE m.id = ANY(msgs);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('messages', n);
          DELETE FROM conversations c WHERE c.id = ANY(convs);
          GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('conversations', n);

          IF the_scope <> 'conversation' THEN
            DELETE FROM node_history h
             WHERE the_scope = 'tenant'
                OR h.node_id IN (SELECT m.id FROM memory_nodes m WHERE m.agent = the_agent)
                OR h.run_id IN (SELECT r.id FROM patrol_runs r WHERE r.agent = the_agent);
            DELETE FROM memory_nodes m WHERE the_scope = 'tenant' OR m.agent = the_agent;
            GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('sceneNodes', n);
            DELETE FROM notes x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            GET DIAGNOSTICS n = ROW_COUNT; notes_gone := notes_gone + n;
            DELETE FROM diary x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            GET DIAGNOSTICS n = ROW_COUNT; notes_gone := notes_gone + n;
            DELETE FROM think_notes x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            GET DIAGNOSTICS n = ROW_COUNT; notes_gone := notes_gone + n;
            tally := tally || jsonb_build_object('beingNotes', notes_gone);
            DELETE FROM partner_rules x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            DELETE FROM relationships x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            DELETE FROM user_preferences x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            DELETE FROM souls x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            DELETE FROM patrol_runs x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            DELETE FROM clusters x WHERE the_scope = 'tenant' OR x.agent = the_agent;
            -- Not FORCEd: the owner sees every tenant's beings, so the tenant is named here.
            DELETE FROM beings b WHERE b.tenant_id = tenant AND (the_scope = 'tenant' OR b.agent = the_agent);
            GET DIAGNOSTICS n = ROW_COUNT; tally := tally || jsonb_build_object('beings', n);
          END IF;
          IF the_scope = 'tenant' THEN
            DELETE FROM access_events;
          END IF;

          RETURN QUERY
            INSERT INTO erasures (tenant_id, scope, agent, conversation_id, requested_by, counts, session_key)
            VALUES (tenant, the_scope, the_agent, erase_conversation, principal, tally, the_session)
            RETURNING erasures.id, erasures.scope, erasures.agent, erasures.session_key, erasures.counts,
                      erasures.requested_at;
        END
        $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION engram_erase(text, bigint, text);
      DROP TABLE erasures;
    `);
  }
}
