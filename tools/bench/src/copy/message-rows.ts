import { decodeMessage, TurnEventSchema } from '@engram/contracts';
import {
  normalizeTurn,
  type NormalizedMessage,
  type NormalizedTurn,
  type TurnLimits,
} from '@engram/memory-core';
import type { CorpusTurn } from '../corpus/turn-corpus';

/**
 * The columns ingest writes into `messages` (services/ingest/src/turns/transcript.repository.ts);
 * everything else is a default or generated (id, ingested_at, tsv …).
 */
export const MESSAGE_COLUMNS = [
  'tenant_id',
  'conversation_id',
  'agent',
  'turn_id',
  'position',
  'stream_seq',
  'role',
  'author',
  'content',
  'raw_content',
  'tool_name',
  'tool_call_id',
  'tool_args',
  'tool_result',
  'metadata',
  'token_estimate',
  'created_at',
] as const;

/** Ingest's own default limits (INGEST_MAX_MESSAGES_PER_TURN, INGEST_MAX_CONTENT_CHARS). */
export const DEFAULT_TURN_LIMITS: TurnLimits = { maxMessagesPerTurn: 1000, maxContentChars: 1_000_000 };

/**
 * The corpus turns as ingest sees them: decoded from the same bytes and normalised
 * by the same code, with stream sequences in publishing order.
 */
export function normalizeCorpus(
  turns: readonly CorpusTurn[],
  limits: TurnLimits = DEFAULT_TURN_LIMITS,
): NormalizedTurn[] {
  const receivedAt = new Date();
  return turns.map((turn, i) => {
    const event = decodeMessage(TurnEventSchema, turn.payload, { strict: true });
    const result = normalizeTurn(event, { subject: turn.subject, streamSequence: i + 1, receivedAt }, limits);
    if (!result.ok) throw new Error(`corpus turn ${turn.turnId} is invalid: ${result.reason}`);
    return result.turn;
  });
}

/** One line of COPY text format: tab-separated, \N for NULL, backslash escapes. */
export function copyLine(turn: NormalizedTurn, conversationId: string, message: NormalizedMessage): string {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const values: Array<string | number | null> = [
    turn.tenantId,
    conversationId,
    turn.agent,
    turn.turnId,
    message.position,
    turn.streamSequence,
    message.role,
    message.author,
    message.content,
    message.rawContent,
    message.toolName,
    message.toolCallId,
    json(message.toolArgs),
    json(message.toolResult),
    JSON.stringify(message.metadata),
    message.tokenEstimate,
    message.createdAt.toISOString(),
  ];
  return copyRow(values);
}

/** One line of COPY text format from its column values: tab-separated, \N for NULL, backslash escapes. */
export function copyRow(values: ReadonlyArray<string | number | null>): string {
  return `${values.map(copyField).join('\t')}\n`;
}

function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\n\r\t]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t',
  );
}
