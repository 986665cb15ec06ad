import {
  CompactionCreatedSchema,
  DeadLetterSchema,
  decodeMessage,
  FactUpsertedSchema,
  MessageStoredSchema,
  parseTurnSubject,
  PatrolCompletedSchema,
  SummaryCreatedSchema,
  tenantOfStreamSubject,
  TurnEventSchema,
  type DescMessage,
  type EraseScope,
} from '@engram/contracts';

/** What of a tenant an erase removes from JetStream, as its audit entry names it. */
export interface StreamErasure {
  readonly tenantId: string;
  readonly scope: EraseScope;
  /** The agent erased, or the erased conversation's ('' when the conversation was not found). */
  readonly agent: string;
  /** The conversation's id, which events carry. */
  readonly conversationId: string;
  /** The conversation's session key, which turns carry ('' when unknown). */
  readonly sessionKey: string;
}

/** Events that name the agent and conversation they are about (the others name neither). */
const ABOUT_A_CONVERSATION: Record<string, DescMessage> = {
  'message.stored': MessageStoredSchema,
  'summary.created': SummaryCreatedSchema,
  'compaction.created': CompactionCreatedSchema,
  'fact.upserted': FactUpsertedSchema,
};

/** Postgres cannot hold NUL: ingest stores U+FFFD in its place, so a session key is compared as stored. */
const asStored = (text: string) => text.replaceAll('\u0000', '\uFFFD');

/** Decodes leniently; null when the bytes are not that message (nothing of them can be attributed). */
function decoded<S extends DescMessage>(schema: S, data: Uint8Array) {
  try {
    return decodeMessage(schema, data, { strict: false });
  } catch {
    return null;
  }
}

/**
 * Whether a message a stream keeps (a turn, an event, a work item) belongs to the erased scope.
 * Its subject names the tenant (and a turn's the agent); below that its body decides: a turn's
 * session key, an event's agent and conversation. A body that does not decode, or an event that
 * names no agent or conversation (vectors written, accesses, work items), belongs only to an
 * erase of the whole tenant.
 */
export function inErasure(erasure: StreamErasure, subject: string, data: Uint8Array): boolean {
  if (tenantOfStreamSubject(subject) !== erasure.tenantId) return false;
  if (erasure.scope === 'tenant') return true;
  if (erasure.agent === '') return false;
  const turn = parseTurnSubject(subject);
  if (turn) {
    if (turn.agent !== erasure.agent) return false;
    if (erasure.scope === 'agent') return true;
    const event = decoded(TurnEventSchema, data);
    return event !== null && erasure.sessionKey !== '' && asStored(event.sessionKey) === erasure.sessionKey;
  }
  const kind = subject.split('.').slice(1, 3).join('.');
  if (kind === 'patrol.completed')
    return erasure.scope === 'agent' && decoded(PatrolCompletedSchema, data)?.agent === erasure.agent;
  const schema = ABOUT_A_CONVERSATION[kind];
  const event = schema ? (decoded(schema, data) as { agent: string; conversationId: string } | null) : null;
  if (!event || event.agent !== erasure.agent) return false;
  return erasure.scope === 'agent' || event.conversationId === erasure.conversationId;
}

/** Whether a dead letter carries a message of the erased scope (its original subject and bytes decide). */
export function deadLetterInErasure(erasure: StreamErasure, data: Uint8Array): boolean {
  const letter = decoded(DeadLetterSchema, data);
  return letter !== null && inErasure(erasure, letter.originalSubject, letter.originalData);
}
