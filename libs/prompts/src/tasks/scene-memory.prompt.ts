import { z } from 'zod';
import {
  SCENE_TASK_LIMITS,
  type BeingProfile,
  type ClusterScene,
  type ConsolidateScenesInput,
  type RepairSceneInput,
  type SceneNode,
  type SplitClusterInput,
  type WriteDiaryInput,
  type WriteThinkNotesInput,
} from './task-inputs';
import type { TaskPrompt } from './task-prompts';

/** OpenAI's strict structured output: every property required, no others (see EXTRACTED_FACTS_JSON_SCHEMA). */
function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema);
  return rest;
}

export const SCENE_CONSOLIDATION_JSON_SCHEMA = strictJsonSchema(
  z.strictObject({
    merges: z.array(z.strictObject({ survivorId: z.string(), absorbedIds: z.array(z.string()) })),
    makeDead: z.array(z.string()),
  }),
);

export const CLUSTER_SPLIT_JSON_SCHEMA = strictJsonSchema(
  z.strictObject({ groups: z.array(z.strictObject({ name: z.string(), nodeIds: z.array(z.string()) })) }),
);

export const THINK_NOTES_JSON_SCHEMA = strictJsonSchema(z.strictObject({ notes: z.array(z.string()) }));

/** A scene with every field required: "" and [] stand for what the note does not say. */
export const REPAIRED_SCENE_JSON_SCHEMA = strictJsonSchema(
  z.strictObject({
    action: z.string(),
    actors: z.array(z.string()),
    when: z.array(z.string()),
    setting: z.string(),
    dialogue: z.array(z.string()),
    sensory: z.array(z.string()),
    feeling: z.string(),
  }),
);

/** Rules for tidying one cluster's scenes. */
export const CONSOLIDATION_RULES = [
  'Merge scenes that describe the same moment or repeat each other: the survivor is the scene with the best wording, the others are absorbed into it.',
  'Make dead the scenes that no longer matter (trivial, faded or superseded); low importance and "dying" hint at it, "fresh" scenes are new.',
  'Never absorb or make dead a pinned scene; a pinned scene may survive a merge.',
  'A scene is in at most one merge, and never both merged and made dead.',
  'Use only the ids you are given.',
  'When nothing needs doing, answer empty lists.',
];

/** Rules for splitting a cluster that grew too broad. */
export const SPLIT_RULES = [
  `Each group is one sub-topic with a short human name (a few words, at most ${SCENE_TASK_LIMITS.groupNameChars} characters), e.g. "Baking with Mia"; no two groups share a name.`,
  'Each group holds at least 2 scenes; a scene is in at most one group.',
  'Leave at least 2 scenes in the cluster: those that fit no sub-topic stay where they are.',
  'Use only the ids you are given.',
  'When the scenes hold no clear sub-topic, answer no groups.',
];

/** Rules for a diary entry. */
export const DIARY_RULES = [
  `Write ${SCENE_TASK_LIMITS.diaryLines.min} to ${SCENE_TASK_LIMITS.diaryLines.max} lines, in the first person and in your own voice: what the day was to you.`,
  'Use only what the day’s scenes say; invent no events, people or words.',
  'Do not repeat yesterday’s entry; carry on from it where the day does.',
  'When the day has no scenes, write briefly about a quiet day.',
  `Plain text, one thought per line: no title, no date, no bullets, no markdown; at most ${SCENE_TASK_LIMITS.diaryChars} characters.`,
];

/** Rules for the notes a being keeps for its next conversation. */
export const THINK_NOTES_RULES = [
  `Write ${SCENE_TASK_LIMITS.notes.min} to ${SCENE_TASK_LIMITS.notes.max} short notes to keep in mind next time: what to follow up on, ask about, remember or do differently.`,
  `Each note is one line of at most ${SCENE_TASK_LIMITS.noteChars} characters, in the first person and in your own voice.`,
  'Use only what the day’s scenes and diary say; invent nothing.',
];

/** Rules for rewriting a scene note that did not parse. */
export const REPAIR_RULES = [
  'Keep everything the note says, in its words where you can; add no events, people, places, dates or words of your own.',
  '`action`: what happened. `actors`: who took part; "me" for the being when the note names nobody.',
  '`when`: the dates or time labels the note gives, as written; none when it gives none.',
  '`setting` (where), `dialogue` (what was said), `sensory` (what was seen, heard, felt) and `feeling` (how it felt): "" or [] when the note does not say.',
];

/** Texts from the caller may span lines; each stays on one line of the prompt. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The being's personality and voice, as lines addressed to it; nothing when not given. */
function beingLines(being: BeingProfile): string[] {
  return [
    being.personality ? `Your personality: ${oneLine(being.personality)}` : '',
    being.voice ? `Your voice, to write in: ${oneLine(being.voice)}` : '',
  ].filter(Boolean);
}

/** `You are Mira` or `You are an AI being`. */
function youAre(being: BeingProfile): string {
  return `You are ${being.name ? oneLine(being.name) : 'an AI being'}`;
}

/** `[42] (0.70, active, fresh, pinned) 2026-11-02 — the kitchen — …`, one line per node. */
function renderNode(node: SceneNode): string {
  const marks = [node.importance.toFixed(2), node.status, node.fresh && 'fresh', node.pinned && 'pinned'];
  return `[${node.id}] (${marks.filter(Boolean).join(', ')}) ${oneLine(node.scene)}`;
}

function renderScene(scene: ClusterScene): string {
  return `[${scene.id}] ${oneLine(scene.scene)}`;
}

/** The day's scenes as a list, or says there were none. */
function renderDay(scenes: readonly string[]): string {
  return scenes.length > 0
    ? `The day's scenes:\n${scenes.map((s) => `- ${oneLine(s)}`).join('\n')}`
    : "The day's scenes: none.";
}

export function consolidateScenesPrompt(input: ConsolidateScenesInput): TaskPrompt {
  const whose = input.being.name ? `${oneLine(input.being.name)}, an AI being` : 'an AI being';
  return {
    messages: [
      {
        role: 'system',
        content: [
          `You tidy the scene memory of ${whose}: the scenes it remembers of one topic, one per line with its id, importance (0–1) and state.`,
          input.being.personality
            ? `Judge what still matters as this personality would: ${oneLine(input.being.personality)}`
            : '',
          ...CONSOLIDATION_RULES.map((r) => `- ${r}`),
          'Answer with JSON: {"merges": [{"survivorId": "…", "absorbedIds": ["…"]}], "makeDead": ["…"]}.',
        ]
          .filter(Boolean)
          .join('\n'),
      },
      {
        role: 'user',
        content: `Cluster: ${oneLine(input.cluster.name)}\n\nScenes:\n${input.nodes.map(renderNode).join('\n')}`,
      },
    ],
    jsonSchema: SCENE_CONSOLIDATION_JSON_SCHEMA,
    schemaName: 'scene_consolidation',
  };
}

export function splitClusterPrompt(input: SplitClusterInput): TaskPrompt {
  return {
    messages: [
      {
        role: 'system',
        content: [
          "You organise an AI being's scene memory. One cluster of scenes has grown too broad: find the coherent sub-topics in it.",
          ...SPLIT_RULES.map((r) => `- ${r}`),
          'Answer with JSON: {"groups": [{"name": "…", "nodeIds": ["…"]}]}.',
        ].join('\n'),
      },
      {
        role: 'user',
        content: `Cluster: ${oneLine(input.cluster.name)}\n\nScenes:\n${input.nodes.map(renderScene).join('\n')}`,
      },
    ],
    jsonSchema: CLUSTER_SPLIT_JSON_SCHEMA,
    schemaName: 'cluster_split',
  };
}

export function writeDiaryPrompt(input: WriteDiaryInput): TaskPrompt {
  const yesterday = input.previous ? `Yesterday's entry:\n${input.previous}\n\n` : '';
  return {
    messages: [
      {
        role: 'system',
        content: [
          `${youAre(input.being)}, writing your diary at the end of ${input.day}.`,
          ...beingLines(input.being),
          ...DIARY_RULES.map((r) => `- ${r}`),
          'Answer with the entry only.',
        ].join('\n'),
      },
      { role: 'user', content: `Day: ${input.day}\n\n${yesterday}${renderDay(input.scenes)}` },
    ],
  };
}

export function writeThinkNotesPrompt(input: WriteThinkNotesInput): TaskPrompt {
  const diary = input.diary ? `Your diary entry:\n${input.diary}\n\n` : '';
  return {
    messages: [
      {
        role: 'system',
        content: [
          `${youAre(input.being)}, getting ready for your next conversation after ${input.day}.`,
          ...beingLines(input.being),
          ...THINK_NOTES_RULES.map((r) => `- ${r}`),
          'Answer with JSON: {"notes": ["…"]}.',
        ].join('\n'),
      },
      { role: 'user', content: `Day: ${input.day}\n\n${diary}${renderDay(input.scenes)}` },
    ],
    jsonSchema: THINK_NOTES_JSON_SCHEMA,
    schemaName: 'think_notes',
  };
}

export function repairScenePrompt(input: RepairSceneInput): TaskPrompt {
  const problems = input.problems.length
    ? `Why it is not a scene:\n${input.problems.map((p) => `- ${oneLine(p)}`).join('\n')}\n\n`
    : '';
  return {
    messages: [
      {
        role: 'system',
        content: [
          'You mend a note an AI being wrote for its scene memory: it was meant to be one scene as JSON, but it is not one. Rewrite it as that scene.',
          ...REPAIR_RULES.map((r) => `- ${r}`),
          'Answer with JSON: {"action": "…", "actors": ["…"], "when": ["…"], "setting": "…", "dialogue": ["…"], "sensory": ["…"], "feeling": "…"}.',
        ].join('\n'),
      },
      { role: 'user', content: `${problems}The note:\n${input.text}` },
    ],
    jsonSchema: REPAIRED_SCENE_JSON_SCHEMA,
    schemaName: 'repaired_scene',
  };
}
