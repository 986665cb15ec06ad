import { Subjects, TurnEventSchema, encodeMessage, timestampFromDate } from '@engram/contracts';
import type { CorpusTurn } from '../corpus/turn-corpus';
import type { LocomoConversation, LocomoTurn } from './dataset';

/**
 * How a LoCoMo conversation becomes what an agent runtime publishes:
 *
 * - tenant: one scratch tenant for the whole run ("locomo");
 * - agent: the sample_id ("conv-26"), so a question is asked with filters.agent = its conversation;
 * - conversation: each session_N is one conversation, session_key "session_N";
 * - turn: each LoCoMo turn is one TurnEvent with one message: turnId = its dia_id ("D3:7"),
 *   occurredAt = the session's date (session_N_date_time, UTC), role "user" (both speakers are
 *   people), author = the speaker's name, content = the text, plus " [image: <blip_caption>]"
 *   when the turn shared a photo;
 * - Nats-Msg-Id: "<agent>/<dia_id>" (dia_ids repeat across conversations).
 *
 * Every turn of a session has the same time, so the transcript's order within a session comes
 * from the publish order (ingest orders by created_at, stream_seq, position): the turns are
 * returned, and must be published, in the dataset's order.
 */
export function turnContent(turn: LocomoTurn): string {
  return turn.blipCaption ? `${turn.text} [image: ${turn.blipCaption}]` : turn.text;
}

export function locomoTurnEvents(
  conversations: readonly LocomoConversation[],
  tenantId: string,
): CorpusTurn[] {
  const turns: CorpusTurn[] = [];
  for (const conversation of conversations) {
    const agent = conversation.sampleId;
    for (const session of conversation.sessions) {
      const occurredAt = timestampFromDate(session.date);
      for (const turn of session.turns) {
        const payload = encodeMessage(TurnEventSchema, {
          turnId: turn.diaId,
          sessionKey: session.key,
          occurredAt,
          messages: [{ role: 'user', author: turn.speaker, content: turnContent(turn) }],
        });
        turns.push({
          subject: Subjects.turn(tenantId, agent),
          tenantId,
          agent,
          sessionKey: session.key,
          turnId: turn.diaId,
          msgId: `${agent}/${turn.diaId}`,
          payload,
          messageCount: 1,
          payloadBytes: payload.byteLength,
        });
      }
    }
  }
  return turns;
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
