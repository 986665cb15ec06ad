import { z } from 'zod';
import type {
  AddNoteRequestSchema,
  AddSceneRequestSchema,
  BeingRecallRequestSchema,
  Emotion,
  GetBeingRequestSchema,
  JournalRequestSchema,
  ListNodesRequestSchema,
  ListNotesRequestSchema,
  NodeHistoryRequestSchema,
  MarkNotesReadRequestSchema,
  PinNodeRequestSchema,
  PutPartnerRuleRequestSchema,
  PutPreferenceRequestSchema,
  PutRelationshipRequestSchema,
  PutSoulRequestSchema,
  RecallMemoryRequestSchema,
  RunPatrolRequestSchema,
  SearchMemoryRequestSchema,
} from '../gen/memory/v1/being_pb';
import { NODE_STATUSES, NOTE_KINDS, SEARCH_MATCHES } from '../values/vocabulary';
import { isRowId } from '../values/row-id';
import { oneOf, quoted, rowId, textProblem, token } from './field-rules';
import { rule, type RuleInput, type RequestRules } from './request-rules';

/** The rules of being memory's RPCs (mem.rpc.being.*, mem.rpc.patrol.run). */

/** Longest scene note, note, rule or soul field, in characters: memory, not a document. */
export const MAX_BEING_TEXT_CHARS = 8000;
/** Longest short label (theme, person, preference key, relation), in characters. */
export const MAX_LABEL_CHARS = 200;
/** Most themes, values, examples or ids one request may carry. */
export const MAX_BEING_LIST = 100;
/** Most notes one list answers. */
export const MAX_NOTES_PAGE = 500;
/** Most nodes one nodes.list answers. */
export const MAX_NODES_PAGE = 500;
/** Most diary entries one journal answers. */
export const MAX_DIARY_PAGE = 500;
/** Most scenes a search_memory answers. */
export const MAX_SCENES_PAGE = 100;
/** Longest message recall embeds, in characters. */
export const MAX_RECALL_MESSAGE_CHARS = 4000;

/** Text of at most `max` characters (code points), no NUL; required unless `optional`. */
const bounded = (max: number, options: { required?: boolean } = {}) =>
  rule(z.string(), (value, field) => {
    if (options.required && value.trim() === '') return `${field} is required`;
    const chars = [...value].length;
    if (chars > max) return `${field} is ${chars} characters long; at most ${max} are accepted`;
    return textProblem(value, field);
  });

/** A list of at most MAX_BEING_LIST labels, each non-empty and at most `max` characters. */
const labels = (max: number) =>
  rule(z.array(z.string()), (list, field) => {
    if (list.length > MAX_BEING_LIST) return `at most ${MAX_BEING_LIST} ${field} (got ${list.length})`;
    const bad = list.find((l) => l.trim() === '' || [...l].length > max || l.includes('\u0000'));
    return bad === undefined ? undefined : `${field} must be 1-${max} characters each (got ${quoted(bad)})`;
  });

/** Between min and max inclusive, or 0 for the default. */
const limit = (max: number) =>
  rule(z.number(), (n, field) =>
    n === 0 || (n >= 1 && n <= max) ? undefined : `${field} must be between 1 and ${max} (got ${n})`,
  );

/**
 * Any number, NaN and ±Infinity included (protobuf JSON carries them as "NaN", "Infinity"), so
 * the rule over it, not zod, says what is wrong, naming the field.
 */
const anyNumber = () => z.custom<number>((value) => typeof value === 'number');

const unit = (min: number) =>
  rule(anyNumber(), (n, field) =>
    Number.isFinite(n) && n >= min && n <= 1 ? undefined : `${field} must be between ${min} and 1 (got ${n})`,
  );

/** The six VADSNT values: valence in [-1, 1], the others in [0, 1]. */
const emotion = z
  .object({
    valence: unit(-1),
    arousal: unit(0),
    dominance: unit(0),
    safety: unit(0),
    novelty: unit(0),
    trust: unit(0),
  } satisfies Record<keyof Omit<Emotion, '$typeName' | '$unknown'>, unknown>)
  .optional() satisfies z.ZodType<unknown, RuleInput<Emotion> | undefined>;

const ids = (what: string) =>
  rule(z.array(z.string()), (list, field) => {
    if (list.length === 0) return `${field} is required`;
    if (list.length > MAX_BEING_LIST) return `at most ${MAX_BEING_LIST} ${field} (got ${list.length})`;
    const bad = list.find((id) => !isRowId(id) || id.startsWith('0'));
    return bad === undefined ? undefined : `${quoted(bad)} is not a ${what} id`;
  });

export const sceneAddRules = z.object({
  agent: token(),
  scene: bounded(MAX_BEING_TEXT_CHARS, { required: true }),
  // Any finite number: the patrol clamps it into 0..1, as the design says.
  importance: rule(anyNumber().optional(), (n, field) =>
    n === undefined || Number.isFinite(n) ? undefined : `${field} must be a finite number (got ${n})`,
  ),
  themes: labels(MAX_LABEL_CHARS),
  emotion,
}) satisfies RequestRules<typeof AddSceneRequestSchema>;

export const noteAddRules = z.object({
  agent: token(),
  kind: oneOf(NOTE_KINDS.filter((k) => k !== 'scene')),
  content: bounded(MAX_BEING_TEXT_CHARS, { required: true }),
}) satisfies RequestRules<typeof AddNoteRequestSchema>;

export const notesListRules = z.object({
  agent: token(),
  kinds: rule(z.array(z.string()), (list, field) => {
    const stranger = list.find((k) => !(NOTE_KINDS as readonly string[]).includes(k));
    return stranger === undefined
      ? undefined
      : `${field} must be among ${NOTE_KINDS.join(', ')} (got ${quoted(stranger)})`;
  }),
  limit: limit(MAX_NOTES_PAGE),
}) satisfies RequestRules<typeof ListNotesRequestSchema>;

export const notesReadRules = z.object({
  agent: token(),
  noteIds: ids('note'),
}) satisfies RequestRules<typeof MarkNotesReadRequestSchema>;

export const partnerRulePutRules = z.object({
  agent: token(),
  rule: bounded(MAX_BEING_TEXT_CHARS, { required: true }),
}) satisfies RequestRules<typeof PutPartnerRuleRequestSchema>;

export const relationshipPutRules = z.object({
  agent: token(),
  person: bounded(MAX_LABEL_CHARS, { required: true }),
  relation: bounded(MAX_LABEL_CHARS),
  notes: bounded(MAX_BEING_TEXT_CHARS),
}) satisfies RequestRules<typeof PutRelationshipRequestSchema>;

export const preferencePutRules = z.object({
  agent: token(),
  key: bounded(MAX_LABEL_CHARS, { required: true }),
  value: bounded(MAX_BEING_TEXT_CHARS, { required: true }),
}) satisfies RequestRules<typeof PutPreferenceRequestSchema>;

export const soulPutRules = z.object({
  agent: token(),
  personality: bounded(MAX_BEING_TEXT_CHARS),
  voice: bounded(MAX_BEING_TEXT_CHARS),
  values: labels(MAX_BEING_TEXT_CHARS),
  backstory: bounded(MAX_BEING_TEXT_CHARS),
  innerWorld: bounded(MAX_BEING_TEXT_CHARS),
  examples: labels(MAX_BEING_TEXT_CHARS),
}) satisfies RequestRules<typeof PutSoulRequestSchema>;

export const beingGetRules = z.object({ agent: token() }) satisfies RequestRules<
  typeof GetBeingRequestSchema
>;

export const nodePinRules = z.object({
  agent: token(),
  nodeId: rowId('node', { required: true }),
}) satisfies RequestRules<typeof PinNodeRequestSchema>;

export const beingRecallRules = z.object({
  agent: token(),
  message: bounded(MAX_RECALL_MESSAGE_CHARS, { required: true }),
}) satisfies RequestRules<typeof BeingRecallRequestSchema>;

export const recallMemoryRules = z.object({
  agent: token(),
  clusterId: rowId('cluster', { required: true }),
}) satisfies RequestRules<typeof RecallMemoryRequestSchema>;

export const searchMemoryRules = z.object({
  agent: token(),
  keywords: rule(labels(MAX_LABEL_CHARS), (list, field) =>
    list.length === 0 ? `${field} is required` : undefined,
  ),
  match: oneOf(SEARCH_MATCHES),
  limit: limit(MAX_SCENES_PAGE),
}) satisfies RequestRules<typeof SearchMemoryRequestSchema>;

export const patrolRunRules = z.object({
  agent: token(),
  model: bounded(MAX_LABEL_CHARS),
  apiKey: bounded(MAX_BEING_TEXT_CHARS),
}) satisfies RequestRules<typeof RunPatrolRequestSchema>;

export const nodesListRules = z.object({
  agent: token(),
  clusterId: rowId('cluster'),
  statuses: rule(z.array(z.string()), (list, field) => {
    const stranger = list.find((k) => !(NODE_STATUSES as readonly string[]).includes(k));
    return stranger === undefined
      ? undefined
      : `${field} must be among ${NODE_STATUSES.join(', ')} (got ${quoted(stranger)})`;
  }),
  limit: limit(MAX_NODES_PAGE),
  nodeIds: rule(z.array(z.string()), (list, field) => {
    if (list.length > MAX_BEING_LIST) return `at most ${MAX_BEING_LIST} ${field} (got ${list.length})`;
    const bad = list.find((id) => !isRowId(id) || id.startsWith('0'));
    return bad === undefined ? undefined : `${quoted(bad)} is not a node id`;
  }),
}) satisfies RequestRules<typeof ListNodesRequestSchema>;

export const nodeHistoryRules = z.object({
  agent: token(),
  nodeId: rowId('node', { required: true }),
}) satisfies RequestRules<typeof NodeHistoryRequestSchema>;

export const journalRules = z.object({
  agent: token(),
  limit: limit(MAX_DIARY_PAGE),
}) satisfies RequestRules<typeof JournalRequestSchema>;
