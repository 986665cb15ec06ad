import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceProcess } from '@engram/testing';
import { Rpcs, timestampFromDate } from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import { summarizeLatencies, type LatencySummary } from '../measure/latency-stats';
import type { ProfileSummary } from '../profile/cpu-profile-summary';
import type { ServiceProfile } from '../profile/service-profile';

/** A hit as a measure reads it: which item, of which kind. */
export interface HitRef {
  readonly id: string;
  readonly kind: string;
}

export interface Question {
  readonly agent: string;
  readonly query: string;
  /** The moment it is asked as of (default now). */
  readonly asOf?: Date;
}

export interface Answer {
  readonly hits: readonly HitRef[];
  readonly degraded: boolean;
  readonly degradedReason: string;
  /** Request → reply at the client. */
  readonly latencyMs: number;
  /** took_ms as the service reported it. */
  readonly tookMs: number;
  /** What ranked the hits: "index" or "sql". */
  readonly answeredBy: string;
}

export interface AskOptions {
  readonly tenantId: string;
  readonly topK: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** After each answer (for a progress line). */
  readonly onAnswer?: (done: number, total: number) => void;
}

/** memory_search is not there at all (no service answers its subject), or refuses every question. */
export class SearchUnavailableError extends Error {
  override readonly name = 'SearchUnavailableError';
  constructor(
    message: string,
    /** What the first call answered: UNAVAILABLE when nothing answers the subject. */
    readonly code: string,
  ) {
    super(message);
  }
}

const RETRIES = 3;

/**
 * One memory_search per question: query = the question, filters.agent = its conversation,
 * asOf when the question has one, topK, the default mode and fusion, leaving no access trace (an evaluation must not feed on itself). A busy service (RESOURCE_EXHAUSTED) is asked again after
 * a pause; any other failure ends the run (a recall over the questions that happened to work
 * would mislead).
 */
async function ask(nc: NatsConnection, question: Question, options: AskOptions): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const response = await callRpc(
        nc,
        Rpcs.search,
        {
          query: question.query,
          filters: { agent: question.agent },
          topK: options.topK,
          recordAccess: false,
          ...(question.asOf && { asOf: timestampFromDate(question.asOf) }),
        },
        { tenantId: options.tenantId, timeoutMs: options.timeoutMs },
      );
      return {
        hits: response.hits.map((h) => ({ id: h.id, kind: h.kind })),
        degraded: response.degraded,
        degradedReason: response.degradedReason,
        latencyMs: performance.now() - started,
        tookMs: response.tookMs,
        answeredBy: response.answeredBy,
      };
    } catch (error) {
      if (error instanceof RpcError && error.code === 'RESOURCE_EXHAUSTED' && attempt <= RETRIES) {
        await new Promise((r) => setTimeout(r, 200 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Asks `question` until retrieval answers it from the tenant's in-memory index (its first search
 * starts the load; Postgres answers meanwhile): how long the load took, or null when no answer
 * came from an index within `withinMs` (the index is off, or the tenant too big for it).
 */
export async function warmIndex(
  nc: NatsConnection,
  question: Question,
  options: AskOptions,
  withinMs = 60_000,
): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < withinMs) {
    if ((await ask(nc, question, options)).answeredBy === 'index') return performance.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}

/**
 * Asks every question, `concurrency` at once, answers in the questions' order. The first
 * question is asked alone, so a missing memory_search fails at once with a clear message.
 */
export async function askQuestions(
  nc: NatsConnection,
  questions: readonly Question[],
  options: AskOptions,
): Promise<Answer[]> {
  const answers: Answer[] = new Array<Answer>(questions.length);
  if (questions.length === 0) return answers;
  try {
    answers[0] = await ask(nc, questions[0]!, options);
  } catch (error) {
    if (error instanceof RpcError) {
      const why =
        error.code === 'UNAVAILABLE'
          ? `${error.message}: the retrieval service runs, but has no memory_search handler (not implemented yet?)`
          : `it answered ${error.code}: ${error.message}${Object.keys(error.details).length ? ` ${JSON.stringify(error.details)}` : ''}`;
      throw new SearchUnavailableError(`memory_search is not available: ${why}`, error.code);
    }
    throw error;
  }
  let done = 1;
  options.onAnswer?.(done, questions.length);
  let next = 1;
  let failed = false;
  const worker = async () => {
    while (!failed && next < questions.length) {
      const index = next++;
      try {
        answers[index] = await ask(nc, questions[index]!, options);
      } catch (error) {
        failed = true;
        const what =
          error instanceof RpcError
            ? `${error.code}: ${error.message}`
            : error instanceof Error
              ? error.message
              : String(error);
        throw new Error(
          `memory_search failed on question ${index + 1} of ${questions.length} ("${questions[index]!.query}", agent ${questions[index]!.agent}): ${what}`,
          {
            cause: error,
          },
        );
      }
      options.onAnswer?.(++done, questions.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return answers;
}

/** How the questions were answered, as a recall bench reports it. */
export interface SearchFigures {
  readonly requests: number;
  /** Request → reply, measured by the client (NATS round trip included). */
  readonly latency: LatencySummary;
  /** took_ms as the service reported it. */
  readonly serviceTook: LatencySummary;
  readonly degraded: number;
  readonly degradedReasons: Record<string, number>;
  /** Hits over all responses by kind (message, summary, fact). */
  readonly hitsByKind: Record<string, number>;
  readonly meanHits: number;
  /** Answers by what ranked them ("index" or "sql"). */
  readonly answeredBy: Record<string, number>;
  /** From the first search to the first answered by the tenant's index (null: none was). */
  readonly indexLoadMs: number | null;
  /** Where retrieval's CPU went while the questions were asked (--cpu-prof). */
  readonly retrievalProfile?: ProfileSummary;
}

const tally = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

/**
 * A recall bench's questions, asked once the tenant's index answers (its first search starts the
 * load), with a progress line every 5 s and retrieval's CPU profiled while they are asked when
 * `profiler` is given: the answers in the questions' order, and how they were answered.
 */
export async function askEveryQuestion(
  nc: NatsConnection,
  questions: readonly Question[],
  options: Omit<AskOptions, 'onAnswer'> & {
    readonly progress: (line: string) => void;
    readonly retrieval: ServiceProcess;
    readonly profiler?: ServiceProfile;
  },
): Promise<{ answers: Answer[]; figures: SearchFigures }> {
  const { progress, retrieval, profiler } = options;
  const indexLoadMs = questions.length > 0 ? await warmIndex(nc, questions[0]!, options) : null;
  progress(
    indexLoadMs === null
      ? 'no answer came from an in-memory index: Postgres answers the questions'
      : `the tenant's index answered after ${Math.round(indexLoadMs)} ms`,
  );
  profiler?.begin(retrieval);
  let lastLine = 0;
  const answers = await askQuestions(nc, questions, {
    ...options,
    onAnswer: (done, total) => {
      const now = performance.now();
      if (done < total && now - lastLine < 5000) return;
      lastLine = now;
      progress(`  ${done}/${total} answered`);
    },
  });
  const retrievalProfile = profiler ? await profiler.end(retrieval) : undefined;
  const hitsByKind: Record<string, number> = {};
  const degradedReasons: Record<string, number> = {};
  const answeredBy: Record<string, number> = {};
  for (const answer of answers) {
    for (const hit of answer.hits) tally(hitsByKind, hit.kind);
    if (answer.degraded) tally(degradedReasons, answer.degradedReason || '(no reason given)');
    tally(answeredBy, answer.answeredBy || 'unspecified');
  }
  return {
    answers,
    figures: {
      requests: answers.length,
      latency: summarizeLatencies(answers.map((a) => a.latencyMs)),
      serviceTook: summarizeLatencies(answers.map((a) => a.tookMs)),
      degraded: answers.filter((a) => a.degraded).length,
      degradedReasons,
      hitsByKind,
      meanHits: answers.length ? answers.reduce((n, a) => n + a.hits.length, 0) / answers.length : 0,
      answeredBy,
      indexLoadMs: indexLoadMs === null ? null : Math.round(indexLoadMs),
      ...(retrievalProfile && { retrievalProfile }),
    },
  };
}
