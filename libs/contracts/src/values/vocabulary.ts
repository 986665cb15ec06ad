/**
 * The closed word lists the contracts speak in (request fields are checked against them;
 * the stores and models use the same lists). Defined here so the request rules can name
 * them; memory-core, search and prompts re-export them where their own code speaks of them.
 */

/** Who said a message. */
export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** What memory holds: messages, the summaries over them, the facts drawn from them (a ref is `<kind>:<id>`). */
export const ITEM_KINDS = ['message', 'summary', 'fact'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const FACT_CATEGORIES = [
  'preference',
  'fact',
  'event',
  'relationship',
  'decision',
  'correction',
  'task',
  'general',
] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

export const FACT_LIFETIMES = ['sticky', 'user_preference', 'project_context', 'learned_pattern'] as const;
export type FactLifetime = (typeof FACT_LIFETIMES)[number];

/**
 * The tasks Engram asks of a model, by name (CompleteRequest.task). The last five are scene
 * memory's patrol: only a language model does them.
 */
export const TASKS = [
  'summarize',
  'extract_facts',
  'describe_tool_call',
  'answer_from_memory',
  'consolidate_scenes',
  'split_cluster',
  'write_diary',
  'write_think_notes',
  'repair_scene',
] as const;
export type TaskName = (typeof TASKS)[number];

/** What a being's note is: a scene (the patrol makes a node of it), a plain note, a TODO, a reminder, knowledge. */
export const NOTE_KINDS = ['scene', 'note', 'todo', 'reminder', 'knowledge'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** Where a scene node is in its life: active, dying (one patrol's grace), dead (revivable). */
export const NODE_STATUSES = ['active', 'dying', 'dead'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** How search_memory combines its keywords: any of them (or) or every one (and). */
export const SEARCH_MATCHES = ['or', 'and'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

/**
 * The patrol's steps in the order they run: the repair of scene notes that did not parse (so
 * that ❶ takes those repaired), ❶–❼, then the diary and think notes.
 */
export const PATROL_STEPS = [
  'repair',
  'scenes',
  'sessions',
  'decay',
  'consolidation',
  'revival',
  'split',
  'merge',
  'diary',
  'think',
] as const;
export type PatrolStep = (typeof PATROL_STEPS)[number];
