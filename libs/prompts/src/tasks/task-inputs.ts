import { z } from 'zod';
import type { TaskName } from '@engram/contracts';
import { FACT_CATEGORIES, MESSAGE_ROLES } from '@engram/memory-core';

// The task names are the contract's (gerty.rpc.complete checks against them).
export { TASKS, type TaskName } from '@engram/contracts';

const instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** A transcript message as a task sees it. */
export const transcriptLine = z.object({
  id: z.string().min(1),
  /** 1-based position in what is summarised. */
  ordinal: z.number().int().min(0).optional(),
  at: instant,
  role: z.enum(MESSAGE_ROLES),
  author: z.string().max(200).optional(),
  text: z.string(),
});

export const describeToolCallInput = z.object({
  toolName: z.string().min(1).max(200),
  toolArgs: z.unknown().optional(),
});

export const summarizeInput = z.object({
  preamble: z.object({
    conversationId: z.string(),
    agent: z.string().optional(),
    channel: z.string().optional(),
    title: z.string().optional(),
    from: instant,
    to: instant,
    messageCount: z.number().int().min(0),
  }),
  lines: z.array(transcriptLine).min(1),
  /** 0 a leaf (messages), 1 a branch (leaves), 2 the root (branches). */
  depth: z.number().int().min(0).max(2).default(0),
  /** Longest summary wanted, in characters. */
  maxChars: z.number().int().positive().optional(),
});

export const extractFactsInput = z.object({
  messages: z.array(transcriptLine).min(1).max(200),
  /** The user's name, when known: facts say "Ada …" rather than "The user …". */
  userName: z.string().max(200).optional(),
});

/** Bounds of an answer_from_memory input: what one prompt can hold, and one NATS message (1 MB) easily. */
export const ANSWER_FROM_MEMORY_LIMITS = { hits: 30, contentChars: 2000, questionChars: 2000 } as const;

/** A search hit as answer_from_memory sees it. */
export const memoryHit = z.object({
  /** The ref the answer cites: "message:123", "summary:45", "fact:6". */
  id: z.string().regex(/^[a-z]+:[\w-]+$/, 'is not a ref like "message:123"'),
  kind: z.enum(['message', 'summary', 'fact']),
  content: z.string().max(ANSWER_FROM_MEMORY_LIMITS.contentChars),
  createdAt: instant,
  author: z.string().max(200).optional(),
});

export const answerFromMemoryInput = z.object({
  question: z.string().trim().min(1).max(ANSWER_FROM_MEMORY_LIMITS.questionChars),
  /** Best match first. */
  hits: z.array(memoryHit).min(1).max(ANSWER_FROM_MEMORY_LIMITS.hits),
});

/** What answer_from_memory answers, from any model (before its citations are checked against the hits). */
export const memoryAnswer = z.object({
  answer: z.string().trim().min(1).max(4000),
  citedIds: z.array(z.string()).default([]),
});

/** What extract_facts answers, from any model. */
export const extractedFacts = z.object({
  facts: z.array(
    z.object({
      content: z.string().min(1).max(2000),
      category: z.enum(FACT_CATEGORIES),
      importance: z.number().int().min(1).max(10),
      sourceMessageIds: z.array(z.string()).default([]),
    }),
  ),
});

export type DescribeToolCallInput = z.infer<typeof describeToolCallInput>;
export type SummarizeInput = z.infer<typeof summarizeInput>;
export type ExtractFactsInput = z.infer<typeof extractFactsInput>;
export type ExtractedFacts = z.infer<typeof extractedFacts>;
export type TranscriptLine = z.infer<typeof transcriptLine>;
export type AnswerFromMemoryInput = z.infer<typeof answerFromMemoryInput>;
export type MemoryHit = z.infer<typeof memoryHit>;
export type MemoryAnswer = z.infer<typeof memoryAnswer>;

export const TASK_INPUTS = {
  summarize: summarizeInput,
  extract_facts: extractFactsInput,
  describe_tool_call: describeToolCallInput,
  answer_from_memory: answerFromMemoryInput,
} as const;

export type TaskInput<T extends TaskName> = z.infer<(typeof TASK_INPUTS)[T]>;
/** What a caller sends for a task (times as ISO text, defaults left out); Gerty parses it into TaskInput. */
export type TaskRequest<T extends TaskName> = z.input<(typeof TASK_INPUTS)[T]>;
/** What a caller sends for summarize (depth may be left to its default). */
export type SummarizeRequest = TaskRequest<'summarize'>;

/** Validates a task's input; the problems name the fields. */
export function parseTaskInput<T extends TaskName>(
  task: T,
  input: unknown,
): { ok: true; value: TaskInput<T> } | { ok: false; problems: string[] } {
  const result = TASK_INPUTS[task].safeParse(input);
  if (result.success) return { ok: true, value: result.data as TaskInput<T> };
  return {
    ok: false,
    problems: result.error.issues.map(
      (i) =>
        `${
          i.path
            .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
            .join('')
            .replace(/^\./, '') || 'input'
        }: ${i.message}`,
    ),
  };
}
