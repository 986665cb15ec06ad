import { toJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema, timestampDate, type Value } from '@bufbuild/protobuf/wkt';
import {
  isValidToken,
  MESSAGE_ROLES,
  parseTurnSubject,
  type MessageRole,
  type TurnEvent,
} from '@engram/contracts';
import { z } from 'zod';
import { parseMemoryTags, type TaggedMemory, type TaggedState } from '../tags/memory-tags';
import { estimateTokens } from '../text/token-estimate';

export { MESSAGE_ROLES, type MessageRole } from '@engram/contracts';

export interface TurnLimits {
  readonly maxMessagesPerTurn: number;
  readonly maxContentChars: number;
}

/** Where and when JetStream received the turn. */
export interface TurnEnvelope {
  readonly subject: string;
  readonly streamSequence: number;
  readonly receivedAt: Date;
}

export interface NormalizedMessage {
  readonly position: number;
  readonly role: MessageRole;
  readonly author: string | null;
  /** What users see: the text without memory tags. */
  readonly content: string;
  /** The text exactly as published, kept only when it differs from content. */
  readonly rawContent: string | null;
  readonly toolName: string | null;
  readonly toolCallId: string | null;
  readonly toolArgs: JsonValue | null;
  readonly toolResult: JsonValue | null;
  readonly metadata: JsonObject;
  readonly createdAt: Date;
  readonly tokenEstimate: number;
  readonly memories: readonly TaggedMemory[];
  readonly state: readonly TaggedState[];
}

export interface NormalizedTurn {
  readonly tenantId: string;
  readonly agent: string;
  readonly turnId: string;
  readonly sessionKey: string;
  readonly channel: string | null;
  readonly channelId: string | null;
  readonly botIdentity: string | null;
  readonly title: string | null;
  readonly model: string | null;
  readonly settings: JsonObject;
  /** The publisher derives this turn's facts itself: no worker extracts any. */
  readonly skipFactExtraction: boolean;
  readonly streamSequence: number;
  readonly messages: readonly NormalizedMessage[];
}

export type TurnValidation =
  | { readonly ok: true; readonly turn: NormalizedTurn }
  | { readonly ok: false; readonly reason: string; readonly problems: readonly string[] };

const ROLE_SET: ReadonlySet<string> = new Set(MESSAGE_ROLES);

/**
 * Building a zod schema is costly (zod 4 compiles a fast path for each), so the rules
 * are built once per distinct set of limits, not once per turn.
 */
const rulesByLimits = new Map<string, ReturnType<typeof buildTurnRules>>();

function turnRules(limits: TurnLimits) {
  const key = `${limits.maxMessagesPerTurn}/${limits.maxContentChars}`;
  let rules = rulesByLimits.get(key);
  if (!rules) {
    rules = buildTurnRules(limits);
    rulesByLimits.set(key, rules);
  }
  return rules;
}

function buildTurnRules(limits: TurnLimits) {
  const message = z
    .object({
      role: z.string().refine((role) => ROLE_SET.has(role), {
        message: `role must be one of ${MESSAGE_ROLES.join(', ')}`,
      }),
      content: z
        .string()
        .max(limits.maxContentChars, `content is longer than ${limits.maxContentChars} characters`),
      toolName: z.string().max(200),
      toolCallId: z.string().max(200),
      author: z.string().max(200),
      hasToolResult: z.boolean(),
    })
    .refine((m) => m.content.trim() !== '' || m.toolName !== '' || m.hasToolResult, {
      message: 'a message needs content or a tool call (toolName or toolResult)',
    });
  return z.object({
    turnId: z.string().min(1, 'turnId is required').max(200),
    sessionKey: z.string().min(1, 'sessionKey is required').max(500),
    channel: z.string().max(200),
    channelId: z.string().max(500),
    botIdentity: z.string().max(200),
    title: z.string().max(1000),
    model: z.string().max(200),
    messages: z
      .array(message)
      .min(1, 'a turn needs at least one message')
      .max(limits.maxMessagesPerTurn, `a turn may hold at most ${limits.maxMessagesPerTurn} messages`),
  });
}

/**
 * Checks what the protobuf schema cannot (required fields, roles, sizes, the
 * subject's tokens) and shapes the turn into transcript rows. Pure: the same
 * event and envelope always give the same rows.
 */
export function normalizeTurn(event: TurnEvent, envelope: TurnEnvelope, limits: TurnLimits): TurnValidation {
  const problems: string[] = [];
  const route = parseTurnSubject(envelope.subject);
  if (!route || !isValidToken(route.tenantId) || !isValidToken(route.agent)) {
    return invalid([
      `subject ${envelope.subject} is not mem.turn.{tenant}.{agent} with tokens of [A-Za-z0-9_-]{1,64}`,
    ]);
  }
  if (event.tenantId && event.tenantId !== route.tenantId) {
    problems.push(`tenantId "${event.tenantId}" does not match the subject's tenant "${route.tenantId}"`);
  }
  if (event.agent && event.agent !== route.agent) {
    problems.push(`agent "${event.agent}" does not match the subject's agent "${route.agent}"`);
  }
  const checked = turnRules(limits).safeParse({
    ...event,
    messages: event.messages.map((m) => ({ ...m, hasToolResult: m.toolResult !== undefined })),
  });
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      problems.push(`${path.replace(/^\./, '') || 'turn'}: ${issue.message}`);
    }
  }
  if (problems.length > 0) return invalid(problems);

  const turnTime = event.occurredAt ? timestampDate(event.occurredAt) : envelope.receivedAt;
  const messages = event.messages.map((m, position): NormalizedMessage => {
    const role = m.role as MessageRole;
    const text = clean(m.content);
    const tags = role === 'assistant' ? parseMemoryTags(text) : null;
    const content = tags ? tags.display : text;
    return {
      position,
      role,
      author: nonEmpty(clean(m.author)),
      content,
      rawContent: content === text ? null : text,
      toolName: nonEmpty(clean(m.toolName)),
      toolCallId: nonEmpty(clean(m.toolCallId)),
      toolArgs: jsonOf(m.toolArgs),
      toolResult: jsonOf(m.toolResult),
      metadata: cleanJson(m.metadata ?? {}) as JsonObject,
      createdAt: m.createdAt ? timestampDate(m.createdAt) : turnTime,
      tokenEstimate: estimateTokens(content),
      memories: tags?.memories ?? [],
      state: tags?.state ?? [],
    };
  });

  return {
    ok: true,
    turn: {
      tenantId: route.tenantId,
      agent: route.agent,
      turnId: event.turnId,
      sessionKey: event.sessionKey,
      channel: nonEmpty(clean(event.channel)),
      channelId: nonEmpty(clean(event.channelId)),
      botIdentity: nonEmpty(clean(event.botIdentity)),
      title: nonEmpty(clean(event.title)),
      model: nonEmpty(clean(event.model)),
      settings: cleanJson(event.settings ?? {}) as JsonObject,
      skipFactExtraction: event.skipFactExtraction,
      streamSequence: envelope.streamSequence,
      messages,
    },
  };
}

function invalid(problems: string[]): TurnValidation {
  return { ok: false, reason: `invalid turn: ${problems.join('; ')}`, problems };
}

function nonEmpty(value: string): string | null {
  return value === '' ? null : value;
}

/** Postgres text and jsonb cannot hold NUL; it is replaced rather than losing the turn. */
function clean(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

function jsonOf(value: Value | undefined): JsonValue | null {
  return value === undefined ? null : cleanJson(toJson(ValueSchema, value));
}

function cleanJson(value: JsonValue): JsonValue {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map(cleanJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), cleanJson(v)]));
  }
  return value;
}
