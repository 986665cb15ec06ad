import type { INestApplication } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Consumers, Streams, Subjects, SummaryCreatedSchema, timestampDate } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import {
  eventConsumersSettled,
  eventsOn,
  startServiceUnderTest,
  waitFor,
  type ServiceUnderTest,
} from '@engram/testing';
import { loadCompactorConfig } from '../compactor.config';
import { CompactorModule } from '../compactor.module';
import { CompactorGertyGateway } from '../gateway/compactor-gerty.gateway';
import { GrowSummaryTreeUseCase } from './grow-summary-tree.use-case';
import { SourcesTakenError, SummaryRepository } from './summary.repository';

/**
 * The summary tree with the real ingest and Gerty (built-in model) as processes and three
 * compactor replicas in this process, all on one JetStream consumer: a 2,000-message
 * conversation becomes 100 leaves, 25 branches and 6 roots, each written and announced once.
 */
const LEAF = 20;
const FAN_OUT = 4;
const MESSAGES = 2000;

describe('compactor: the summary tree (real Postgres, NATS, ingest and Gerty; 3 replicas)', () => {
  let compactor: ServiceUnderTest;
  let js: JetStreamClient;
  let replicas: INestApplication[];

  const sql = <T extends object>(text: string, params: unknown[] = []) => compactor.sql<T>(text, params);
  const count = (text: string, params: unknown[] = []) => compactor.count(text, params);

  /** Turns of two messages each, one a second, oldest first; waits until ingest stored them. */
  async function publishConversation(
    session: string,
    turns: number,
    text: (turn: number, k: number) => string,
  ): Promise<void> {
    const start = Date.parse('2026-03-01T09:00:00Z');
    const acks = [];
    for (let t = 0; t < turns; t++) {
      const turnId = `${session}-${t}`;
      const turn = {
        turnId,
        sessionKey: session,
        occurredAt: new Date(start + t * 1000).toISOString(),
        messages: [0, 1].map((k) => ({
          role: k === 0 ? 'user' : 'assistant',
          author: k === 0 ? 'Ada' : 'helper',
          content: text(t, k),
        })),
      };
      acks.push(js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turnId }));
      if (acks.length >= 200) await Promise.all(acks.splice(0));
    }
    await Promise.all(acks);
  }

  const conversationId = async (session: string) =>
    (await sql<{ id: string }>(`SELECT id::text FROM conversations WHERE session_key = $1`, [session]))[0]!
      .id;

  const summaryEvents = () =>
    eventsOn(js, Streams.events.name, Subjects.summaryCreated('acme'), SummaryCreatedSchema);

  beforeAll(async () => {
    compactor = await startServiceUnderTest({
      label: 'compactor',
      loadConfig: loadCompactorConfig,
      module: (config) => CompactorModule.register(config),
      processes: ['ingest', 'gerty'],
      replicas: 3,
      config: {
        COMPACTOR_LEAF_MESSAGES: String(LEAF),
        COMPACTOR_LEAF_TOKENS: '2000',
        COMPACTOR_FAN_OUT: String(FAN_OUT),
        // Small batches, so the three replicas each get a share of the conversation's events.
        CONSUMER_BATCH_SIZE: '16',
      },
    });
    ({ js, apps: replicas } = compactor);
  });

  afterAll(() => compactor?.stop());

  it('grows a 2,000-message conversation into leaves, branches and roots, each once, linked in order', async () => {
    // Counted at the gateway: Gerty's own counter also has each turn's fact extraction.
    const summarizeCalls = replicas.map((app) => jest.spyOn(app.get(CompactorGertyGateway), 'summarize'));
    const runs = replicas.map((app) => jest.spyOn(app.get(GrowSummaryTreeUseCase), 'grow'));
    await publishConversation('long', MESSAGES / 2, (t, k) =>
      k === 0
        ? `Turn ${t}: how is the quarterly report on coffee exports from Brazil going?`
        : `Turn ${t}: the report is ${t % 3 ? 'on track' : 'late'}, harvest ${t}.`,
    );
    const id = await waitForConversation('long');
    const leaves = MESSAGES / LEAF;
    const branches = leaves / FAN_OUT;
    const roots = Math.floor(branches / FAN_OUT);
    await waitFor(
      'tree grown and announced',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM summaries s WHERE s.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'summary:' || s.tenant_id || ':' || s.id || ':created')`,
          [id],
        )) ===
        leaves + branches + roots,
      60_000,
      250,
    );

    const levels = await sql<{ depth: number; n: string }>(
      `SELECT depth, count(*) AS n FROM summaries WHERE conversation_id = $1 GROUP BY depth ORDER BY depth`,
      [id],
    );
    expect(levels.map((l) => [l.depth, Number(l.n)])).toEqual([
      [0, leaves],
      [1, branches],
      [2, roots],
    ]);

    // Leaves, in order, cover the transcript exactly once in its order.
    const transcript = await sql<{ id: string }>(
      `SELECT id::text FROM messages WHERE conversation_id = $1 ORDER BY created_at, stream_seq, position, id`,
      [id],
    );
    const covered = await sql<{ id: string }>(
      `SELECT ss.source_id::text AS id FROM summaries s JOIN summary_sources ss ON ss.summary_id = s.id AND ss.source_kind = 'message'
        WHERE s.conversation_id = $1 AND s.depth = 0 ORDER BY s.earliest_at, s.id, ss.ordinal`,
      [id],
    );
    expect(covered.map((r) => r.id)).toEqual(transcript.map((r) => r.id));
    expect(transcript).toHaveLength(MESSAGES);
    // Each message under a leaf is stamped as such (what the next leaf's read skips).
    expect(
      await count(`SELECT count(*) AS n FROM messages WHERE conversation_id = $1 AND summarised_at IS NULL`, [
        id,
      ]),
    ).toBe(0);

    // Every summary's span and count are its sources'; ordinals run 1..n.
    const leafSpans = await sql<{ ok: boolean }>(
      `SELECT bool_and(s.message_count = x.n AND s.earliest_at = x.earliest AND s.latest_at = x.latest AND x.ordinals_ok) AS ok
         FROM summaries s
         JOIN LATERAL (SELECT count(*)::int AS n, min(m.created_at) AS earliest, max(m.created_at) AS latest,
                              min(ss.ordinal) = 1 AND max(ss.ordinal) = count(*) AS ordinals_ok
                         FROM summary_sources ss JOIN messages m ON m.id = ss.source_id
                        WHERE ss.summary_id = s.id AND ss.source_kind = 'message') x ON true
        WHERE s.conversation_id = $1 AND s.depth = 0`,
      [id],
    );
    expect(leafSpans[0]!.ok).toBe(true);
    const parents = await sql<{
      depth: number;
      message_count: number;
      children: number;
      child_depths: number[];
      ok: boolean;
    }>(
      `SELECT s.depth, s.message_count, x.children, x.child_depths,
              (s.message_count = x.messages AND s.earliest_at = x.earliest AND s.latest_at = x.latest AND x.in_order) AS ok
         FROM summaries s
         JOIN LATERAL (SELECT count(*)::int AS children, array_agg(DISTINCT c.depth) AS child_depths, sum(c.message_count)::int AS messages,
                              min(c.earliest_at) AS earliest, max(c.latest_at) AS latest,
                              array_agg(c.id ORDER BY ss.ordinal) = array_agg(c.id ORDER BY c.earliest_at, c.id) AS in_order
                         FROM summary_sources ss JOIN summaries c ON c.id = ss.source_id
                        WHERE ss.summary_id = s.id AND ss.source_kind = 'summary') x ON true
        WHERE s.conversation_id = $1 AND s.depth > 0`,
      [id],
    );
    expect(parents).toHaveLength(branches + roots);
    for (const p of parents) {
      expect(p).toMatchObject({
        children: FAN_OUT,
        child_depths: [p.depth - 1],
        ok: true,
        message_count: LEAF * FAN_OUT ** p.depth,
      });
    }
    // Drill-down from a root reaches its messages, losslessly.
    const [drill] = await sql<{ n: string }>(
      `WITH RECURSIVE tree AS (
         SELECT ss.source_kind, ss.source_id FROM summary_sources ss
          WHERE ss.summary_id = (SELECT id FROM summaries WHERE conversation_id = $1 AND depth = 2 ORDER BY earliest_at LIMIT 1)
         UNION ALL
         SELECT ss.source_kind, ss.source_id FROM tree t JOIN summary_sources ss ON ss.summary_id = t.source_id AND t.source_kind = 'summary')
       SELECT count(*) AS n FROM tree WHERE source_kind = 'message'`,
      [id],
    );
    expect(Number(drill!.n)).toBe(LEAF * FAN_OUT ** 2);
    // One leaf branch waits for three more.
    expect(
      await count(
        `SELECT count(*) AS n FROM summaries s WHERE conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM summary_sources ss WHERE ss.source_kind = 'summary' AND ss.source_id = s.id) AND depth = 1`,
        [id],
      ),
    ).toBe(branches - roots * FAN_OUT);
    expect(
      (
        await sql<{ model: string }>(`SELECT DISTINCT model FROM summaries WHERE conversation_id = $1`, [id])
      ).map((r) => r.model),
    ).toEqual(['engram-local-rules-v1']);

    // Announced once each, with what was written; Gerty wrote each summary once, whatever three replicas did.
    const events = (await summaryEvents()).filter((e) => e.event.conversationId === id);
    const rows = await sql<{
      id: string;
      depth: number;
      earliest_at: Date;
      latest_at: Date;
      message_count: number;
    }>(
      `SELECT id::text, depth, earliest_at, latest_at, message_count FROM summaries WHERE conversation_id = $1`,
      [id],
    );
    expect(events.map((e) => e.event.summaryId).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const row of rows) {
      const { event, msgId } = events.find((e) => e.event.summaryId === row.id)!;
      expect(msgId).toBe(`summary:acme:${row.id}:created`);
      expect(event).toMatchObject({
        tenantId: 'acme',
        agent: 'helper',
        depth: row.depth,
        messageCount: row.message_count,
        model: 'engram-local-rules-v1',
      });
      expect(timestampDate(event.earliestAt!).getTime()).toBe(row.earliest_at.getTime());
      expect(timestampDate(event.latestAt!).getTime()).toBe(row.latest_at.getTime());
    }
    expect(summarizeCalls.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(leaves + branches + roots);
    // All three replicas took part (and serialised on the conversation's lock).
    for (const run of runs) expect(run).toHaveBeenCalled();
  });

  it('writes and announces nothing again when every stored-message event is delivered again', async () => {
    const before = await count(`SELECT count(*) AS n FROM summaries`);
    const eventsBefore = (await summaryEvents()).length;
    const outboxBefore = await count(`SELECT count(*) AS n FROM outbox`);
    // The same events again (as after a redelivery), under new msg ids so JetStream keeps them.
    const stored = await js.consumers.get(Streams.events.name, {
      filter_subjects: Subjects.messageStored('acme'),
    });
    const again = [];
    for await (const m of await stored.fetch({ max_messages: 200, expires: 1000 })) {
      again.push(js.publish(m.subject, m.data, { msgID: `again-${m.seq}` }));
      if (again.length === 200) break;
    }
    await Promise.all(again);
    await eventConsumersSettled(
      compactor.nc,
      [Consumers.compactorSummaries, Consumers.compactorFacts, Consumers.compactorSessions].map(
        (c) => c.durable,
      ),
      20_000,
    );
    expect(await count(`SELECT count(*) AS n FROM summaries`)).toBe(before);
    expect(await count(`SELECT count(*) AS n FROM outbox`)).toBe(outboxBefore);
    expect((await summaryEvents()).length).toBe(eventsBefore);
  });

  it('waits below both thresholds and writes a leaf when the tokens pass one', async () => {
    await publishConversation('short', 5, (t, k) => `Short ${t}/${k}.`);
    const short = await waitForConversation('short', 10);
    // About 750 tokens each: two fill most of the 2,000, a third would pass them.
    await publishConversation(
      'wordy',
      2,
      (t, k) => `Wordy ${t}/${k}: ${'the harvest report was long and detailed '.repeat(75)}`,
    );
    const wordy = await waitForConversation('wordy', 4);
    await waitFor(
      'wordy leaf',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM summaries s WHERE s.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'summary:' || s.tenant_id || ':' || s.id || ':created')`,
          [wordy],
        )) === 1,
      20_000,
    );
    // Each wordy message costs ~760 tokens with its line: two fit 2,000, the third starts a batch that waits.
    expect(
      await sql(`SELECT depth, message_count FROM summaries WHERE conversation_id = $1`, [wordy]),
    ).toEqual([{ depth: 0, message_count: 2 }]);
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [short])).toBe(0);
  });

  it('refuses a second leaf over the same messages even to writers that skip the lock', async () => {
    await publishConversation('race', 2, (t, k) => `Race ${t}/${k}.`);
    const id = await waitForConversation('race', 4);
    const sourceIds = (
      await sql<{ id: string }>(`SELECT id::text FROM messages WHERE conversation_id = $1 ORDER BY id`, [id])
    ).map((r) => r.id);
    // Three replicas write a leaf over the same messages at once, straight through the repository.
    const attempts = await Promise.allSettled(
      replicas.map((app) =>
        app.get(TenantTransactions).run('acme', (m) =>
          app.get(SummaryRepository).insert(m, {
            tenantId: 'acme',
            conversationId: id,
            agent: 'helper',
            depth: 0,
            content: 'race',
            tokenEstimate: 1,
            model: 'test',
            sourceIds,
          }),
        ),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected'))
      expect(a.reason).toBeInstanceOf(SourcesTakenError);
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [id])).toBe(1);
  });

  async function waitForConversation(session: string, messages = MESSAGES): Promise<string> {
    await waitFor(
      `${session} stored`,
      async () =>
        (await count(
          `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.session_key = $1`,
          [session],
        )) === messages,
      30_000,
    );
    return conversationId(session);
  }
});
