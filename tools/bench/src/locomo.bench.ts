#!/usr/bin/env node
/**
 * `npm run bench:locomo -- --data <locomo.json> [--json]`: retrieval quality on LoCoMo
 * (Maharana et al., ACL 2024), turn-level recall@5/10/25/50 of memory_search, through the
 * real pipeline: a private nats-server, a migrated scratch database, and gerty (built-in
 * model), ingest, embedder and retrieval as their own processes.
 *
 * The dataset is read from the given path (the product never reads it) and validated.
 *
 * Mapping (see locomo/turn-events.ts): one scratch tenant ("locomo"); agent = the sample_id
 * ("conv-26"); each session_N is one conversation, session_key "session_N"; each turn is one
 * TurnEvent of one message: turnId = its dia_id ("D3:7"), occurredAt = session_N_date_time
 * (chrono-node, UTC), role "user", author = the speaker, content = the text plus
 * " [image: <blip_caption>]" when the turn shared a photo. Turns are published in the
 * dataset's order (the turns of a session share their time; ingest then orders them by
 * stream sequence), and the stored order is checked afterwards.
 *
 * The measure (see the dataset's README, locomo/evidence.ts and locomo/recall.ts): each question
 * is asked with memory_search (query = the question, filters.agent = its conversation, topK 50,
 * default mode and fusion). Its evidence is split on ";" and whitespace, normalised ("D30:05" =
 * "D30:5"), and kept where it resolves to an ingested turn of that conversation; a question with
 * none is left out. recall@k = the share of its evidence turns among the first k hits, counting
 * only hits of kind "message" (summaries and facts count through the source messages they were
 * expanded to, when those appear within the same k); averaged over questions, overall and per
 * category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial).
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { loadLocomo, LocomoFileError } from '@engram/memory-core';
import { diaIdKey, resolveEvidence } from './locomo/evidence';
import {
  LOCOMO_REFERENCES,
  LOCOMO_STANDARD_TARGETS,
  LOCOMO_TARGETS,
  locomoHeadline,
  locomoStandard,
  renderLocomoReport,
  standardTargetsMet,
  targetsMet,
  type LocomoBenchResult,
  type ScoredQuestionDetail,
} from './locomo/locomo-report';
import { evidenceRanks, summariseRecall } from './locomo/recall';
import { dayAfterLastSession, locomoTurnEvents, sessionsOutOfOrder } from './locomo/turn-events';
import { evidenceSharesWords, missesByReach, storedTurns } from './measure/shared-words';
import { TurnIndex } from './measure/turn-index';
import { writeResult } from './report/bench-report';
import { SearchUnavailableError } from './run/ask-questions';
import { Cleanups, datasetFile, progressFor, runBench } from './run/lifecycle';
import {
  RECALL_TOP_K,
  recallBenchSettings,
  runRecallBench,
  withRecallBenchOptions,
  type RecallBenchFlags,
} from './run/retrieval-stack';

const REPO_ROOT = resolve(__dirname, '../../..');

interface Flags extends RecallBenchFlags {
  data: string;
  asOf: 'last-session' | 'now';
}

const progress = progressFor('bench:locomo');
const cleanups = new Cleanups(progress).installSignalHandlers();

async function main(flags: Flags): Promise<void> {
  const { file, sha256 } = datasetFile(flags.data);
  const conversations = await loadLocomo(file);
  const turns = locomoTurnEvents(conversations, flags.tenant);
  const sessions = conversations.reduce((n, c) => n + c.sessions.length, 0);
  const questionCount = conversations.reduce((n, c) => n + c.questions.length, 0);
  progress(
    `${file}: ${conversations.length} conversations, ${sessions} sessions, ${turns.length} turns, ${questionCount} questions`,
  );

  await runRecallBench(
    { name: 'locomo', flags, turns, cleanups, progress },
    async ({ stack, ingested, ask }) => {
      const { deadLetters, messages: storedMessages, ...ingestFigures } = ingested;
      const { admin, machine } = stack;

      // 2. What was stored: message → turn, and the transcript's order per session.
      const stored = await storedTurns(admin, flags.tenant);
      const index = new TurnIndex(stored, diaIdKey);
      const order = await admin.query<{ agent: string; session_key: string; turn_ids: string[] }>(
        `SELECT c.agent, c.session_key, array_agg(m.turn_id ORDER BY m.created_at, m.stream_seq, m.position) AS turn_ids
         FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.tenant_id = $1 GROUP BY c.agent, c.session_key`,
        [flags.tenant],
      );
      const outOfOrder = sessionsOutOfOrder(
        conversations,
        order.rows.map((r) => ({ agent: r.agent, sessionKey: r.session_key, turnIds: r.turn_ids })),
      );
      if (outOfOrder.length)
        progress(
          `WARNING: ${outOfOrder.length} sessions stored out of the dataset's order: ${outOfOrder.slice(0, 5).join(', ')}`,
        );

      // 3. The questions whose evidence resolves.
      const scored: Array<{
        sampleId: string;
        index: number;
        category: number;
        question: string;
        evidence: readonly string[];
      }> = [];
      const unresolvedEvidence: string[] = [];
      let withoutEvidence = 0;
      for (const conversation of conversations) {
        conversation.questions.forEach((q, i) => {
          const evidence = resolveEvidence(q.evidence, index.turnsOf(conversation.sampleId));
          unresolvedEvidence.push(
            ...evidence.unresolved.map((piece) => `${conversation.sampleId} q${i}: ${piece}`),
          );
          if (evidence.turns.length === 0) withoutEvidence++;
          else
            scored.push({
              sampleId: conversation.sampleId,
              index: i,
              category: q.category,
              question: q.question,
              evidence: evidence.turns,
            });
        });
      }

      // 4. memory_search for each, as of the day after its conversation's last session (an agent
      // asks once the conversation is over), or as of now.
      const askedAt = new Map(conversations.map((c) => [c.sampleId, dayAfterLastSession(c)]));
      progress(
        `asking ${scored.length} questions (memory_search, topK ${RECALL_TOP_K}, ${flags.concurrency} at once); ${withoutEvidence} left out (no resolvable evidence)`,
      );
      const { answers, figures } = await ask(
        scored.map((q) => ({
          agent: q.sampleId,
          query: q.question,
          ...(flags.asOf === 'last-session' && { asOf: askedAt.get(q.sampleId)! }),
        })),
      );

      // 5. Recall, and whether full text could reach each question's evidence at all.
      const reach = await evidenceSharesWords(
        admin,
        stored,
        scored.map((q) => ({ agent: q.sampleId, text: q.question, evidence: q.evidence })),
        diaIdKey,
      );
      const details: ScoredQuestionDetail[] = scored.map((q, i) => {
        const answer = answers[i]!;
        return {
          ...q,
          sharesWords: reach[i]!,
          ranks: evidenceRanks(q.evidence, answer.hits, (id) => index.turnOf(id, q.sampleId)),
          top: answer.hits
            .slice(0, 10)
            .map(
              (h) =>
                (h.kind === 'message' ? index.turnOf(h.id, q.sampleId) : undefined) ?? `${h.kind}:${h.id}`,
            ),
          hits: answer.hits.length,
          degraded: answer.degraded,
        };
      });
      const recall = summariseRecall(details);
      const standard = locomoStandard(details);
      const result: LocomoBenchResult = {
        benchmark: 'locomo',
        finishedAt: new Date().toISOString(),
        machine,
        dataset: {
          file,
          sha256,
          conversations: conversations.length,
          sessions,
          turns: turns.length,
          imageTurns: conversations.reduce(
            (n, c) => n + c.sessions.reduce((m, s) => m + s.turns.filter((t) => t.blipCaption).length, 0),
            0,
          ),
          questions: questionCount,
          questionsWithoutEvidence: withoutEvidence,
          unresolvedEvidence,
        },
        settings: { ...recallBenchSettings(flags), asOf: flags.asOf },
        ingest: ingestFigures,
        search: figures,
        recall: recall.overall,
        byCategory: recall.byCategory,
        references: LOCOMO_REFERENCES,
        standard,
        reach: missesByReach(
          details.filter((d) => d.category <= 4),
          10,
        ),
        targets: {
          recall: LOCOMO_TARGETS,
          met: targetsMet(recall.overall.recall),
          standard: LOCOMO_STANDARD_TARGETS,
          standardMet: standardTargetsMet(standard),
        },
        checks: {
          messages: storedMessages,
          expectedMessages: turns.length,
          withVector: storedMessages,
          deadLetters,
          sessionsOutOfOrder: outOfOrder.length,
        },
        questions: details,
      };
      const out = resolve(REPO_ROOT, flags.out);
      writeResult(out, result);
      console.log(renderLocomoReport(result));
      console.log(`\nwritten to ${out}`);
      if (flags.json) console.log(JSON.stringify(locomoHeadline(recall, standard, result.search.latency)));
    },
  );
}

const program = withRecallBenchOptions(
  new Command('bench:locomo')
    .description('Retrieval recall on LoCoMo through the real pipeline (ingest, embedder, gerty, retrieval).')
    .requiredOption('--data <file>', 'the LoCoMo JSON (e.g. locomo10.json or a split of it)')
    .addOption(
      new Option('--as-of <moment>', "ask as of the day after each conversation's last session, or as of now")
        .choices(['last-session', 'now'])
        .default('last-session'),
    ),
  {
    tenant: 'locomo',
    concurrency: 4,
    ingestTimeout: 900,
    headline: '{"questions","recall","byCategory","standard","searchP50Ms","searchP95Ms"}',
    out: 'bench-results/locomo.json',
  },
);

runBench(program, main, [LocomoFileError, SearchUnavailableError]);
