import { RpcError } from '@engram/messaging';
import { DEFAULT_TEXT_SEARCH, languageCodeOf } from '@engram/memory-core';
import {
  LocalEmbedder,
  answerExtractive,
  describeToolCall,
  extractFacts,
  summarizeExtractive,
} from '@engram/local-model';
import {
  TASKS,
  type AnswerFromMemoryInput,
  type DescribeToolCallInput,
  type ExtractFactsInput,
  type SummarizeInput,
  type TaskInput,
  type TaskName,
} from '@engram/prompts';
import type { Completion, Embedding, ModelProvider } from '../model-provider';

/** The built-in engine's answers are rules and statistics: named so that stored results say so. */
export const BUILTIN_COMPLETION_MODEL_ID = 'engram-local-rules-v1';

/**
 * Scene memory's tasks judge what matters, write in a being's voice and read what a broken note
 * meant: rules and statistics cannot.
 */
export const LANGUAGE_MODEL_TASKS = [
  'consolidate_scenes',
  'split_cluster',
  'write_diary',
  'write_think_notes',
  'repair_scene',
] as const satisfies readonly TaskName[];
export type LanguageModelTask = (typeof LANGUAGE_MODEL_TASKS)[number];

export function needsLanguageModel(task: TaskName): task is LanguageModelTask {
  return (LANGUAGE_MODEL_TASKS as readonly TaskName[]).includes(task);
}

/** The tasks the built-in model does itself. */
export const BUILTIN_TASKS: readonly TaskName[] = TASKS.filter((task) => !needsLanguageModel(task));

/**
 * The built-in model: GloVe-based sentence vectors, and Engram's tasks done without
 * an LLM (extractive summaries, rule-based facts, tool-call descriptions, answers
 * quoted from the memory items that match the question). No network, no GPU; loaded
 * once at start.
 */
export class BuiltinProvider implements ModelProvider {
  readonly modelId: string;
  readonly completionModelId = BUILTIN_COMPLETION_MODEL_ID;
  readonly dimensions: number;

  private constructor(private readonly embedder: LocalEmbedder) {
    this.modelId = embedder.modelId;
    this.dimensions = embedder.dimensions;
  }

  static load(path?: string): BuiltinProvider {
    return new BuiltinProvider(LocalEmbedder.load(path));
  }

  async embed(texts: readonly string[]): Promise<Embedding> {
    return { vectors: this.embedder.embed([...texts]), dimensions: this.dimensions };
  }

  async complete(): Promise<Completion> {
    throw RpcError.failedPrecondition('the built-in model does Engram’s tasks, not free-form prompts');
  }

  runTask<T extends TaskName>(task: T, input: TaskInput<T>): Completion {
    // On the plain name: a task added to TASKS does not compile until it is done here or needs a language model.
    const name: TaskName = task;
    if (needsLanguageModel(name))
      throw RpcError.failedPrecondition(
        `task ${name} needs a language model, which the built-in model is not: configure one (see README, "Models"), with the operator's key or a tenant's own (gerty.rpc.keys.put)`,
      );
    switch (name) {
      case 'summarize':
        return { text: summarize(input as SummarizeInput) };
      case 'extract_facts': {
        const facts = extractFactsFrom(input as ExtractFactsInput);
        return { text: JSON.stringify({ facts }), json: { facts } };
      }
      case 'answer_from_memory': {
        const { answer, citedIds } = answerFromMemory(input as AnswerFromMemoryInput);
        return { text: answer, json: { answer, citedIds } };
      }
      case 'describe_tool_call': {
        const call = input as DescribeToolCallInput;
        return { text: describeToolCall(call.toolName, call.toolArgs) };
      }
      default: {
        const undecided: never = name;
        throw new Error(`the built-in model has no rule for task ${String(undecided)}`);
      }
    }
  }
}

function summarize(input: SummarizeInput): string {
  const lines = input.lines.map((line, i) => ({
    ordinal: line.ordinal ?? i + 1,
    at: line.at,
    author: line.author ?? '',
    role: line.role,
    text: line.text,
    id: line.id,
  }));
  const size = lines.reduce((n, l) => n + l.text.length, 0);
  const { preamble } = input;
  return summarizeExtractive(
    {
      preamble: {
        conversationId: preamble.conversationId,
        agent: preamble.agent ?? null,
        channel: preamble.channel ?? null,
        title: preamble.title ?? null,
        from: preamble.from,
        to: preamble.to,
        messageCount: preamble.messageCount,
      },
      lines,
    },
    // Without a budget: about a quarter of the sources, within reason.
    { maxChars: input.maxChars ?? Math.min(4000, Math.max(600, Math.round(size / 4))) },
  );
}

function extractFactsFrom(input: ExtractFactsInput) {
  return extractFacts(
    input.messages.map((m) => ({ id: m.id, role: m.role, author: m.author ?? null, text: m.text, at: m.at })),
    // The rules read English: a conversation in another language yields no facts, not wrong ones.
    { userName: input.userName ?? null, language: languageCodeOf(input.language ?? DEFAULT_TEXT_SEARCH) },
  ).map((fact) => ({
    content: fact.content,
    category: fact.category,
    importance: fact.importance,
    sourceMessageIds: fact.sourceMessageIds,
  }));
}

function answerFromMemory(input: AnswerFromMemoryInput) {
  return answerExtractive(
    input.question,
    input.hits.map((hit) => ({
      id: hit.id,
      text: hit.content,
      at: hit.createdAt,
      author: hit.author ?? null,
    })),
  );
}
