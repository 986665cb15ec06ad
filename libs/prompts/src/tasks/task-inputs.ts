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
  /** What writing it may take in tokens, a thinking model's thoughts included (the call's max_tokens). */
  maxTokens: z.number().int().positive().optional(),
});

export const extractFactsInput = z.object({
  messages: z.array(transcriptLine).min(1).max(200),
  /** The user's name, when known: facts say "Ada …" rather than "The user …". */
  userName: z.string().max(200).optional(),
  /** The conversation's text-search configuration (`english`, `italian`, `simple` …), when known. */
  language: z.string().max(64).optional(),
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

/**
 * Bounds of the scene-memory tasks: what one prompt can hold, and one NATS message (1 MB)
 * easily (500 scenes of 500 characters are about 300 kB). Diary entries fit the `previous` and
 * `diary` of the next day's inputs.
 */
export const SCENE_TASK_LIMITS = {
  consolidateNodes: 200,
  splitNodes: 500,
  diaryScenes: 100,
  nodeIdChars: 64,
  sceneChars: 500,
  nameChars: 200,
  personalityChars: 4000,
  voiceChars: 2000,
  diaryChars: 2000,
  diaryLines: { min: 3, max: 5 },
  groupNameChars: 60,
  notes: { min: 3, max: 7 },
  noteChars: 300,
  repairChars: 20_000,
  repairProblems: 20,
  problemChars: 300,
} as const;

const L = SCENE_TASK_LIMITS;
const nodeId = z.string().min(1).max(L.nodeIdChars);
/** One line: "2026-11-02 — the kitchen — baked bread with Mia — \"smells like home\" — (warm)". */
const sceneLine = z.string().trim().min(1).max(L.sceneChars);

/** Who remembers the scenes, as the prompts speak of it; an empty text counts as not given. */
export const beingProfile = z.object({
  name: z.string().trim().max(L.nameChars).optional(),
  personality: z.string().trim().max(L.personalityChars).optional(),
  /** How it writes (diary, notes): "short sentences, dry humour". */
  voice: z.string().trim().max(L.voiceChars).optional(),
});

/** Ids name one node each, so that an answer naming an id means one scene. */
function distinctIds<N extends { id: string }>(nodes: readonly N[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  nodes.forEach((node, i) => {
    if (seen.has(node.id))
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `repeats node ${node.id}` });
    seen.add(node.id);
  });
}

/** A scene node as consolidate_scenes sees it. */
export const sceneNode = z.object({
  id: nodeId,
  scene: sceneLine,
  importance: z.number().min(0).max(1),
  status: z.enum(['active', 'dying']),
  /** Added since the last patrol. */
  fresh: z.boolean(),
  /** Kept by hand: never absorbed nor made dead. */
  pinned: z.boolean(),
});

export const consolidateScenesInput = z.object({
  being: beingProfile.omit({ voice: true }),
  cluster: z.object({ name: z.string().trim().min(1).max(L.nameChars) }),
  nodes: z.array(sceneNode).min(1).max(L.consolidateNodes).superRefine(distinctIds),
});

/** A scene as split_cluster sees it. */
export const clusterScene = z.object({ id: nodeId, scene: sceneLine });

export const splitClusterInput = z.object({
  cluster: z.object({ name: z.string().trim().min(1).max(L.nameChars) }),
  nodes: z.array(clusterScene).min(3).max(L.splitNodes).superRefine(distinctIds),
});

/** What the day held, as write_diary and write_think_notes see it. */
const dayOf = {
  being: beingProfile,
  day: z.iso.date(),
  /** The day's scene lines, oldest first. */
  scenes: z.array(sceneLine).max(L.diaryScenes),
};

export const writeDiaryInput = z.object({
  ...dayOf,
  /** Yesterday's entry, so that today's does not repeat it. */
  previous: z.string().trim().max(L.diaryChars).optional(),
});

export const writeThinkNotesInput = z.object({
  ...dayOf,
  /** The day's diary entry, when written. */
  diary: z.string().trim().max(L.diaryChars).optional(),
});

/** A scene note that did not parse, as repair_scene sees it. */
export const repairSceneInput = z.object({
  /** The note as the being wrote it (without the PARSE_FAILED mark). */
  text: z.string().trim().min(1).max(L.repairChars),
  /** Why it is not a scene ("actors: …"); none when only the stored scene was broken. */
  problems: z.array(z.string().trim().min(1).max(L.problemChars)).max(L.repairProblems),
});

/** What consolidate_scenes answers, from any model (before checkConsolidation holds it to the nodes). */
export const sceneConsolidation = z.object({
  merges: z
    .array(z.object({ survivorId: nodeId, absorbedIds: z.array(nodeId).min(1).max(L.consolidateNodes) }))
    .max(L.consolidateNodes)
    .default([]),
  makeDead: z.array(nodeId).max(L.consolidateNodes).default([]),
});

/** What split_cluster answers, from any model (before checkSplit holds it to the nodes). */
export const clusterSplit = z.object({
  groups: z
    .array(
      z.object({
        name: z.string().min(1).max(L.groupNameChars),
        nodeIds: z.array(nodeId).max(L.splitNodes),
      }),
    )
    .max(L.splitNodes),
});

/** What write_think_notes answers, from any model (before checkThinkNotes trims it). */
export const thinkNotes = z.object({
  notes: z.array(z.string().min(1).max(L.noteChars)).min(L.notes.min).max(L.notes.max),
});

export type DescribeToolCallInput = z.infer<typeof describeToolCallInput>;
export type SummarizeInput = z.infer<typeof summarizeInput>;
export type ExtractFactsInput = z.infer<typeof extractFactsInput>;
export type ExtractedFacts = z.infer<typeof extractedFacts>;
export type TranscriptLine = z.infer<typeof transcriptLine>;
export type AnswerFromMemoryInput = z.infer<typeof answerFromMemoryInput>;
export type MemoryHit = z.infer<typeof memoryHit>;
export type MemoryAnswer = z.infer<typeof memoryAnswer>;
export type BeingProfile = z.infer<typeof beingProfile>;
export type SceneNode = z.infer<typeof sceneNode>;
export type ConsolidateScenesInput = z.infer<typeof consolidateScenesInput>;
export type ClusterScene = z.infer<typeof clusterScene>;
export type SplitClusterInput = z.infer<typeof splitClusterInput>;
export type WriteDiaryInput = z.infer<typeof writeDiaryInput>;
export type WriteThinkNotesInput = z.infer<typeof writeThinkNotesInput>;
export type RepairSceneInput = z.infer<typeof repairSceneInput>;
export type SceneConsolidation = z.infer<typeof sceneConsolidation>;
export type ClusterSplit = z.infer<typeof clusterSplit>;
export type ThinkNotes = z.infer<typeof thinkNotes>;

export const TASK_INPUTS = {
  summarize: summarizeInput,
  extract_facts: extractFactsInput,
  describe_tool_call: describeToolCallInput,
  answer_from_memory: answerFromMemoryInput,
  consolidate_scenes: consolidateScenesInput,
  split_cluster: splitClusterInput,
  write_diary: writeDiaryInput,
  write_think_notes: writeThinkNotesInput,
  repair_scene: repairSceneInput,
} as const satisfies Record<TaskName, z.ZodType>;

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
