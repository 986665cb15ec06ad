import { z } from 'zod';
import { FACT_CATEGORIES } from '@engram/memory-core';
import { ordinalWidthFor, renderPreamble, renderTranscriptLine } from '@engram/local-model';
import { answerFromMemoryPrompt } from './answer-from-memory.prompt';
import {
  consolidateScenesPrompt,
  repairScenePrompt,
  splitClusterPrompt,
  writeDiaryPrompt,
  writeThinkNotesPrompt,
} from './scene-memory.prompt';
import {
  type AnswerFromMemoryInput,
  type ConsolidateScenesInput,
  type DescribeToolCallInput,
  type ExtractFactsInput,
  type RepairSceneInput,
  type SplitClusterInput,
  type SummarizeInput,
  type TaskInput,
  type TaskName,
  type TranscriptLine,
  type WriteDiaryInput,
  type WriteThinkNotesInput,
} from './task-inputs';

export interface TaskPrompt {
  readonly messages: ReadonlyArray<{ role: 'system' | 'user'; content: string }>;
  /** When set, the answer must be JSON matching it. */
  readonly jsonSchema?: Record<string, unknown>;
  readonly schemaName?: string;
  /** The call's max_tokens, when the task's input sets it. */
  readonly maxTokens?: number;
}

/** Rules every summary shares, whatever its depth. */
export const SUMMARY_RULES = [
  'Be exhaustive: every distinct topic, decision, question, result and open item in the sources appears in the summary.',
  'Use only what the sources say; add no facts, guesses or advice from outside them.',
  'Keep identifiers verbatim: PR and issue numbers, commit hashes, file, path, skill and tool names, URLs, figures, amounts and dates.',
  'System messages are first-class: keep what they set (instructions, configuration, errors).',
  'Write plain Unicode text: no LaTeX, no HTML, no tables.',
  'Keep the time line: say when things happened (ISO dates or the attribution timestamps) and who said or did them.',
];

/** Rules for facts worth remembering. */
export const FACT_RULES = [
  'Each fact is one standalone sentence in the third person that makes sense without the conversation ("Ada\'s sister Emma lives in Porto.").',
  'Make relative dates absolute from the date of the message that states them ("tomorrow" in a message of 2026-02-22 is 2026-02-23).',
  'Write each fact in the language of the conversation.',
  'Leave out greetings, filler, questions nobody answered, hypotheticals, and what the assistant itself said or offered.',
  'Leave out what is only about the request being worked on right now (what to write, look up or fix in this exchange) unless it says something lasting about the user.',
  'Keep what is durable about the user and their world: identity, preferences, relationships, plans, events, decisions, corrections, tasks.',
  'Category: preference, fact, event, relationship, decision, correction, task or general. Importance 1–10 (10: must never be forgotten).',
  'Cite the ids of the messages each fact comes from.',
];

/** Numbered in order when the caller did not number them. */
function attributed(lines: readonly TranscriptLine[]) {
  return lines.map((line, i) => ({ ...line, ordinal: line.ordinal ?? i + 1, author: line.author ?? '' }));
}

/** The same line format the built-in summariser writes, so that a summary traces back to its messages. */
function renderLines(lines: readonly TranscriptLine[]): string {
  const numbered = attributed(lines);
  const width = ordinalWidthFor(numbered);
  return numbered.map((line) => renderTranscriptLine(line, width)).join('\n');
}

/** For facts, each line also shows its message id, which the answer cites. */
function renderLinesWithIds(lines: readonly TranscriptLine[]): string {
  const numbered = attributed(lines);
  const width = ordinalWidthFor(numbered);
  return numbered
    .map((line) => renderTranscriptLine({ ...line, text: `(id ${line.id}) ${line.text}` }, width))
    .join('\n');
}

function summarizePrompt(input: SummarizeInput): TaskPrompt {
  const p = input.preamble;
  const what = [
    'messages of a conversation',
    'summaries of consecutive parts of a conversation',
    'summaries of the periods of a whole conversation',
  ][input.depth]!;
  const preamble = renderPreamble({
    ...p,
    agent: p.agent ?? null,
    channel: p.channel ?? null,
    title: p.title ?? null,
  });
  return {
    messages: [
      {
        role: 'system',
        content: [
          `You summarise ${what} for a long-term memory that an AI agent will search and read later.`,
          ...SUMMARY_RULES.map((r) => `- ${r}`),
          input.maxChars ? `- At most ${input.maxChars} characters.` : '',
          'Answer with the summary only.',
        ]
          .filter(Boolean)
          .join('\n'),
      },
      { role: 'user', content: `${preamble}\n\n${renderLines(input.lines)}` },
    ],
    ...(input.maxTokens && { maxTokens: input.maxTokens }),
  };
}

/**
 * What models are asked to produce: OpenAI's strict structured output wants every
 * property required, no other properties, and no defaults or ranges; the answer is
 * then checked against `extractedFacts` (with its ranges).
 */
const { $schema: _dialect, ...factsSchema } = z.toJSONSchema(
  z.strictObject({
    facts: z.array(
      z.strictObject({
        content: z.string(),
        category: z.enum(FACT_CATEGORIES),
        importance: z.number(),
        sourceMessageIds: z.array(z.string()),
      }),
    ),
  }),
);
export const EXTRACTED_FACTS_JSON_SCHEMA: Record<string, unknown> = factsSchema;

/** When the newest of the lines was said. */
function latestAt(lines: readonly TranscriptLine[]): Date {
  return new Date(Math.max(...lines.map((l) => l.at.getTime())));
}

/** "2026-04-18 (Saturday)": a date with its day name, so "next Monday" can be made absolute. */
function dayOf(at: Date): string {
  const weekday = at.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  return `${at.toISOString().slice(0, 10)} (${weekday})`;
}

function extractFactsPrompt(input: ExtractFactsInput): TaskPrompt {
  return {
    messages: [
      {
        role: 'system',
        content: [
          'You extract the facts worth remembering from the latest messages of a conversation, for a long-term memory.',
          `Today is ${dayOf(latestAt(input.messages))}: the date of the latest message.`,
          ...FACT_RULES.map((r) => `- ${r}`),
          input.userName
            ? `- The user is called ${input.userName}.`
            : '- Call the user "the user" unless the messages give their name.',
          'Answer with JSON: {"facts": [{"content", "category", "importance", "sourceMessageIds"}]}; {"facts": []} when nothing is worth remembering.',
        ].join('\n'),
      },
      { role: 'user', content: renderLinesWithIds(input.messages) },
    ],
    jsonSchema: EXTRACTED_FACTS_JSON_SCHEMA,
    schemaName: 'extracted_facts',
  };
}

function describeToolCallPrompt(input: DescribeToolCallInput): TaskPrompt {
  const args = JSON.stringify(input.toolArgs ?? {});
  return {
    messages: [
      {
        role: 'system',
        content:
          'You describe a tool call an AI agent made, for a searchable memory: one sentence, past tense, naming what was done and its salient arguments (no JSON, no more than 200 characters). Answer with the sentence only.',
      },
      {
        role: 'user',
        content: `Tool: ${input.toolName}\nArguments: ${args.length > 2000 ? `${args.slice(0, 2000)}…` : args}`,
      },
    ],
  };
}

/** The prompt a language model gets for a task (the built-in model runs the task itself). */
export function renderTaskPrompt<T extends TaskName>(task: T, input: TaskInput<T>): TaskPrompt {
  // Switched on the plain name so that a task added to TASKS does not compile without its prompt.
  const name: TaskName = task;
  switch (name) {
    case 'summarize':
      return summarizePrompt(input as SummarizeInput);
    case 'extract_facts':
      return extractFactsPrompt(input as ExtractFactsInput);
    case 'answer_from_memory':
      return answerFromMemoryPrompt(input as AnswerFromMemoryInput);
    case 'describe_tool_call':
      return describeToolCallPrompt(input as DescribeToolCallInput);
    case 'consolidate_scenes':
      return consolidateScenesPrompt(input as ConsolidateScenesInput);
    case 'split_cluster':
      return splitClusterPrompt(input as SplitClusterInput);
    case 'write_diary':
      return writeDiaryPrompt(input as WriteDiaryInput);
    case 'write_think_notes':
      return writeThinkNotesPrompt(input as WriteThinkNotesInput);
    case 'repair_scene':
      return repairScenePrompt(input as RepairSceneInput);
    default: {
      const unprompted: never = name;
      throw new Error(`no prompt for task ${String(unprompted)}`);
    }
  }
}
