import { z } from 'zod';
import { describeIssues, readDatasetJson } from '@engram/memory-core';

/** A file that is not the LongMemEval release format: the message says where and what. */
export class LongMemEvalFileError extends Error {
  override readonly name = 'LongMemEvalFileError';
}

export const QUESTION_TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'multi-session',
  'knowledge-update',
  'temporal-reasoning',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface LongMemEvalTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /** The turn holds (part of) the answer. */
  readonly hasAnswer: boolean;
}

export interface LongMemEvalSession {
  /** As released; the same id may stand twice in one haystack. */
  readonly id: string;
  /** haystack_dates' entry as written ("2023/05/20 (Sat) 02:48") and as read (UTC). */
  readonly dateText: string;
  readonly date: Date;
  readonly turns: readonly LongMemEvalTurn[];
}

export interface LongMemEvalQuestion {
  readonly id: string;
  readonly type: QuestionType;
  readonly question: string;
  /** When the question is asked (question_date, UTC). */
  readonly date: Date;
  /** Abstention questions (id ending in "_abs") have no answer in the haystack: left out of retrieval measures. */
  readonly abstention: boolean;
  readonly answerSessionIds: readonly string[];
  readonly sessions: readonly LongMemEvalSession[];
}

const DATE = /^(\d{4})\/(\d{2})\/(\d{2}) \([A-Za-z]{3}\) (\d{2}):(\d{2})$/;

/** "2023/05/20 (Sat) 02:48" as UTC; null for anything else. */
export function parseLongMemEvalDate(text: string): Date | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 ? date : null;
}

const DateText = z.string().refine((t) => parseLongMemEvalDate(t) !== null, {
  message: 'expected a date such as "2023/05/20 (Sat) 02:48"',
});

const TurnSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

const QuestionSchema = z
  .looseObject({
    question_id: z.string().min(1),
    question_type: z.enum(QUESTION_TYPES),
    question: z.string().min(1),
    question_date: DateText,
    answer_session_ids: z.array(z.string()),
    haystack_session_ids: z.array(z.string().min(1)),
    haystack_dates: z.array(DateText),
    haystack_sessions: z.array(z.array(TurnSchema)),
  })
  .superRefine((q, ctx) => {
    const n = q.haystack_session_ids.length;
    if (q.haystack_dates.length !== n || q.haystack_sessions.length !== n)
      ctx.addIssue({
        code: 'custom',
        message: `haystack_session_ids (${n}), haystack_dates (${q.haystack_dates.length}) and haystack_sessions (${q.haystack_sessions.length}) must be parallel lists`,
      });
  });

const FileSchema = z
  .array(QuestionSchema, 'expected a JSON array of questions (objects with question_id, haystack_sessions …)')
  .min(1, 'no questions')
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    questions.forEach((q, i) => {
      if (seen.has(q.question_id))
        ctx.addIssue({
          code: 'custom',
          message: `question_id "${q.question_id}" appears twice`,
          path: [i, 'question_id'],
        });
      seen.add(q.question_id);
    });
  });

/** Validates parsed JSON as the LongMemEval release format (longmemeval_s.json and its kin). */
export function parseLongMemEval(json: unknown, source: string): LongMemEvalQuestion[] {
  const result = FileSchema.safeParse(json);
  if (!result.success)
    throw new LongMemEvalFileError(
      `${source} is not a LongMemEval file (the release's longmemeval_s.json format):\n${describeIssues(result.error.issues)}`,
    );
  return result.data.map((q) => ({
    id: q.question_id,
    type: q.question_type,
    question: q.question,
    date: parseLongMemEvalDate(q.question_date)!,
    abstention: q.question_id.endsWith('_abs'),
    answerSessionIds: q.answer_session_ids,
    sessions: q.haystack_sessions.map((turns, i) => ({
      id: q.haystack_session_ids[i]!,
      dateText: q.haystack_dates[i]!,
      date: parseLongMemEvalDate(q.haystack_dates[i]!)!,
      turns: turns.map((t) => ({ role: t.role, content: t.content, hasAnswer: t.has_answer === true })),
    })),
  }));
}

/** Reads and validates a LongMemEval file (any path). */
export async function loadLongMemEval(file: string): Promise<LongMemEvalQuestion[]> {
  return parseLongMemEval(await readDatasetJson(file, (message) => new LongMemEvalFileError(message)), file);
}
