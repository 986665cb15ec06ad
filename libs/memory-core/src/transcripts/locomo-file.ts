import { z } from 'zod';
import { TOKEN_PATTERN } from '@engram/contracts';
import { describeIssues, readDatasetJson } from './dataset-json';
import { parseSessionDate } from './session-date';

/** One turn of a session: who said it, its dia_id ("D3:7" = session 3, turn 7), the text, and a caption when it shared a photo. */
export interface LocomoTurn {
  readonly speaker: string;
  readonly diaId: string;
  readonly text: string;
  readonly blipCaption?: string;
}

export interface LocomoSession {
  /** N of session_N. */
  readonly number: number;
  /** "session_N". */
  readonly key: string;
  /** session_N_date_time as written ("1:56 pm on 8 May, 2023") and as parsed (UTC). */
  readonly dateTime: string;
  readonly date: Date;
  readonly turns: readonly LocomoTurn[];
}

/** 1 multi-hop, 2 temporal, 3 open-domain/commonsense, 4 single-hop, 5 adversarial. */
export type LocomoCategory = 1 | 2 | 3 | 4 | 5;

export interface LocomoQuestion {
  readonly question: string;
  readonly category: LocomoCategory;
  /** As released: may join several ids in one entry, or hold malformed ids (see evidence.ts). */
  readonly evidence: readonly string[];
}

export interface LocomoConversation {
  readonly sampleId: string;
  /** In session order (by N). */
  readonly sessions: readonly LocomoSession[];
  readonly questions: readonly LocomoQuestion[];
}

/** A file that is not the LoCoMo release format: the message says where and what. */
export class LocomoFileError extends Error {
  override readonly name = 'LocomoFileError';
}

const SESSION_KEY = /^session_(\d+)$/;

const TurnSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().min(1),
  text: z.string(),
  blip_caption: z.string().nullish(),
});

const QuestionSchema = z.looseObject({
  question: z.string().min(1),
  evidence: z.array(z.string()),
  category: z.union(
    [z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)],
    'category must be 1, 2, 3, 4 or 5',
  ),
});

/** `conversation`: speaker_a, speaker_b, then session_N (turns) with session_N_date_time, for N = 1, 2, … */
const ConversationSchema = z
  .looseObject({ speaker_a: z.string(), speaker_b: z.string() })
  .transform((value, ctx): LocomoSession[] => {
    const sessions: LocomoSession[] = [];
    for (const [key, raw] of Object.entries(value)) {
      const match = SESSION_KEY.exec(key);
      if (!match) continue;
      const turns = z.array(TurnSchema).safeParse(raw);
      if (!turns.success) {
        for (const issue of turns.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
        continue;
      }
      const dateKey = `${key}_date_time`;
      const dateTime = value[dateKey];
      if (typeof dateTime !== 'string') {
        ctx.addIssue({
          code: 'custom',
          message: `${key} has no ${dateKey} (a date such as "1:56 pm on 8 May, 2023")`,
          path: [dateKey],
        });
        continue;
      }
      const date = parseSessionDate(dateTime);
      if (!date) {
        ctx.addIssue({
          code: 'custom',
          message: `not a date and time: "${dateTime}" (expected e.g. "1:56 pm on 8 May, 2023")`,
          path: [dateKey],
        });
        continue;
      }
      sessions.push({
        number: Number(match[1]),
        key,
        dateTime,
        date,
        turns: turns.data.map((t) => ({
          speaker: t.speaker,
          diaId: t.dia_id,
          text: t.text,
          ...(t.blip_caption ? { blipCaption: t.blip_caption } : {}),
        })),
      });
    }
    if (sessions.length === 0) ctx.addIssue({ code: 'custom', message: 'no session_N with turns' });
    return sessions.sort((a, b) => a.number - b.number);
  });

const SampleSchema = z.looseObject({
  sample_id: z
    .string()
    .regex(TOKEN_PATTERN, 'sample_id becomes the agent name: letters, digits, "_" and "-" only (at most 64)'),
  conversation: ConversationSchema,
  qa: z.array(QuestionSchema),
});

const FileSchema = z
  .array(SampleSchema, 'expected a JSON array of conversations (objects with sample_id, conversation and qa)')
  .min(1, 'no conversations')
  .superRefine((samples, ctx) => {
    const seen = new Set<string>();
    samples.forEach((s, i) => {
      if (seen.has(s.sample_id))
        ctx.addIssue({
          code: 'custom',
          message: `sample_id "${s.sample_id}" appears twice`,
          path: [i, 'sample_id'],
        });
      seen.add(s.sample_id);
    });
  });

/** Validates parsed JSON as the LoCoMo release format; `source` names it in the error. */
export function parseLocomo(json: unknown, source: string): LocomoConversation[] {
  const result = FileSchema.safeParse(json);
  if (!result.success) {
    throw new LocomoFileError(
      `${source} is not a LoCoMo file (the release's locomo10.json format):\n${describeIssues(result.error.issues)}`,
    );
  }
  return result.data.map((s) => ({
    sampleId: s.sample_id,
    sessions: s.conversation,
    questions: s.qa.map((q) => ({ question: q.question, category: q.category, evidence: q.evidence })),
  }));
}

/** Reads and validates a LoCoMo file (any path). */
export async function loadLocomo(file: string): Promise<LocomoConversation[]> {
  return parseLocomo(await readDatasetJson(file, (message) => new LocomoFileError(message)), file);
}
