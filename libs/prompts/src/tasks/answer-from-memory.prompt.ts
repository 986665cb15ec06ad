import { z } from 'zod';
import { isoMinute } from '@engram/local-model';
import type { AnswerFromMemoryInput, MemoryHit } from './task-inputs';
import type { TaskPrompt } from './task-prompts';

/** Rules for an answer written over search hits. */
export const ANSWER_RULES = [
  'Answer briefly: a few sentences at most.',
  'Use only what the memory items say; add no facts, guesses or advice from outside them.',
  'Cite the id of every item you use in square brackets right after what it supports, e.g. [message:12].',
  'When the items do not contain the answer, say plainly that memory does not hold it, and cite nothing.',
  'Items come best match first; when they disagree, prefer the more recent one and say that it changed.',
  'Make relative dates absolute from the date of the item that states them.',
];

/** OpenAI's strict structured output: every property required, no others (see EXTRACTED_FACTS_JSON_SCHEMA). */
const { $schema: _dialect, ...answerSchema } = z.toJSONSchema(
  z.strictObject({ answer: z.string(), citedIds: z.array(z.string()) }),
);
export const MEMORY_ANSWER_JSON_SCHEMA: Record<string, unknown> = answerSchema;

/** `[message:12] 2026-06-01T10:00Z message by Ada: text`, one line per item. */
function renderHit(hit: MemoryHit): string {
  const by = hit.author ? ` by ${hit.author}` : '';
  return `[${hit.id}] ${isoMinute(hit.createdAt)} ${hit.kind}${by}: ${hit.content.replace(/\s+/g, ' ').trim()}`;
}

export function answerFromMemoryPrompt(input: AnswerFromMemoryInput): TaskPrompt {
  return {
    messages: [
      {
        role: 'system',
        content: [
          "You answer a question from an AI agent's long-term memory, using only the memory items you are given.",
          ...ANSWER_RULES.map((r) => `- ${r}`),
          'Answer with JSON: {"answer": "…", "citedIds": ["message:12"]}, citedIds listing every id cited in the answer.',
        ].join('\n'),
      },
      {
        role: 'user',
        content: `Question: ${input.question}\n\nMemory items:\n${input.hits.map(renderHit).join('\n')}`,
      },
    ],
    jsonSchema: MEMORY_ANSWER_JSON_SCHEMA,
    schemaName: 'memory_answer',
  };
}
