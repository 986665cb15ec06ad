import { z } from 'zod';
import { sceneSchema } from '@engram/being';
import {
  clusterSplit,
  extractedFacts,
  memoryAnswer,
  sceneConsolidation,
  thinkNotes,
  type TaskName,
} from './task-inputs';

/**
 * What each task answers, from any model: the schema of its output and where the output
 * is in gerty.rpc.complete's answer (its text, or its JSON).
 */
export const TASK_ANSWERS = {
  summarize: { from: 'text', schema: z.string() },
  extract_facts: { from: 'json', schema: extractedFacts },
  describe_tool_call: { from: 'text', schema: z.string() },
  answer_from_memory: { from: 'json', schema: memoryAnswer },
  consolidate_scenes: { from: 'json', schema: sceneConsolidation },
  split_cluster: { from: 'json', schema: clusterSplit },
  write_diary: { from: 'text', schema: z.string() },
  write_think_notes: { from: 'json', schema: thinkNotes },
  repair_scene: { from: 'json', schema: sceneSchema },
} as const satisfies Record<TaskName, { from: 'text' | 'json'; schema: z.ZodType }>;

/**
 * What a task answers: summarize, describe_tool_call and write_diary text, extract_facts
 * ExtractedFacts, answer_from_memory MemoryAnswer, consolidate_scenes SceneConsolidation,
 * split_cluster ClusterSplit, write_think_notes ThinkNotes, repair_scene Scene.
 */
export type TaskOutput<T extends TaskName> = z.output<(typeof TASK_ANSWERS)[T]['schema']>;

/** A task's output with the model that produced it. */
export interface TaskAnswer<T extends TaskName> {
  readonly output: TaskOutput<T>;
  /** As Gerty names it (stored beside what it produced). */
  readonly model: string;
}

/** gerty.rpc.complete's answer, with its JSON already plain JSON. */
export interface CompletionReply {
  readonly text: string;
  readonly json?: unknown;
  readonly model: string;
}

/** A model answered a task in a shape other than the task's: a fault of the model, not of the caller. */
export class TaskAnswerShapeError extends Error {
  override readonly name = 'TaskAnswerShapeError';
}

/** The typed output of a task from a completion's reply; throws TaskAnswerShapeError when it is not the task's shape. */
export function parseTaskAnswer<T extends TaskName>(task: T, reply: CompletionReply): TaskAnswer<T> {
  const answer = TASK_ANSWERS[task];
  const value = answer.from === 'text' ? reply.text : reply.json;
  if (value === undefined)
    throw new TaskAnswerShapeError(`model ${reply.model} answered ${task} without JSON`);
  const parsed = answer.schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new TaskAnswerShapeError(
      `model ${reply.model} answered ${task} in another shape (${where}${issue?.message ?? 'unknown'})`,
    );
  }
  return { output: parsed.data as TaskOutput<T>, model: reply.model };
}
