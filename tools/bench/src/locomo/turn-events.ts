import { Subjects, TurnEventSchema, encodeMessage } from '@engram/contracts';
import { locomoTurns, type LocomoConversation } from '@engram/memory-core';
import type { CorpusTurn } from '../corpus/turn-corpus';

export { turnContent } from '@engram/memory-core';

/**
 * LoCoMo's turns (mapped by `locomoTurns` in libs/memory-core: agent = the sample_id, a
 * conversation per session, a single-message turn per LoCoMo turn) as the bench publishes
 * them: one scratch tenant for the whole run ("locomo"), Nats-Msg-Id "<agent>/<dia_id>"
 * (dia_ids repeat across conversations), in the dataset's order.
 */
export function locomoTurnEvents(
  conversations: readonly LocomoConversation[],
  tenantId: string,
): CorpusTurn[] {
  return locomoTurns(conversations).map(({ agent, turn }) => {
    const payload = encodeMessage(TurnEventSchema, turn);
    return {
      subject: Subjects.turn(tenantId, agent),
      tenantId,
      agent,
      sessionKey: turn.sessionKey,
      turnId: turn.turnId,
      msgId: `${agent}/${turn.turnId}`,
      payload,
      messageCount: turn.messages.length,
      payloadBytes: payload.byteLength,
    };
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a question about a conversation is asked: the day after its last session. */
export function dayAfterLastSession(conversation: LocomoConversation): Date {
  const last = Math.max(...conversation.sessions.map((s) => s.date.getTime()));
  return new Date(last + DAY_MS);
}

/** A stored conversation's turn ids in transcript order (created_at, stream_seq, position). */
export interface StoredSession {
  readonly agent: string;
  readonly sessionKey: string;
  readonly turnIds: readonly string[];
}

/** The sessions ("conv-26/session_3") whose stored transcript is not the dataset's turns in the dataset's order. */
export function sessionsOutOfOrder(
  conversations: readonly LocomoConversation[],
  stored: readonly StoredSession[],
): string[] {
  const byKey = new Map(stored.map((s) => [`${s.agent}/${s.sessionKey}`, s.turnIds]));
  const wrong: string[] = [];
  for (const conversation of conversations) {
    for (const session of conversation.sessions) {
      const key = `${conversation.sampleId}/${session.key}`;
      const got = byKey.get(key) ?? [];
      const expected = session.turns.map((t) => t.diaId);
      if (got.length !== expected.length || got.some((id, i) => id !== expected[i])) wrong.push(key);
    }
  }
  return wrong;
}
