import { create, timestampFromDate, TurnEventSchema, type TurnEvent } from '@engram/contracts';
import type { LocomoConversation, LocomoTurn } from './locomo-file';

/** A turn for an agent: what a runtime would publish on mem.turn.{tenant}.{agent}. */
export interface AgentTurn {
  readonly agent: string;
  readonly turn: TurnEvent;
}

/** A turn's text, with the caption of the photo it shared: " [image: <blip_caption>]". */
export function turnContent(turn: LocomoTurn): string {
  return turn.blipCaption ? `${turn.text} [image: ${turn.blipCaption}]` : turn.text;
}

/**
 * How a LoCoMo conversation becomes what an agent runtime publishes: agent = the sample_id
 * ("conv-26"); each session_N one conversation, session key "session_N"; each LoCoMo turn one
 * TurnEvent with one message — turnId its dia_id ("D3:7", unique within a sample), occurredAt
 * the session's date (UTC), role "user" (both speakers are people), author the speaker,
 * content the text (with its photo's caption). Every turn of a session has the same time, so
 * the transcript's order within a session is the publish order: the turns come, and must be
 * published, in the dataset's order.
 */
export function locomoTurns(conversations: readonly LocomoConversation[]): AgentTurn[] {
  const turns: AgentTurn[] = [];
  for (const conversation of conversations) {
    for (const session of conversation.sessions) {
      const occurredAt = timestampFromDate(session.date);
      for (const turn of session.turns)
        turns.push({
          agent: conversation.sampleId,
          turn: create(TurnEventSchema, {
            turnId: turn.diaId,
            sessionKey: session.key,
            occurredAt,
            messages: [{ role: 'user', author: turn.speaker, content: turnContent(turn) }],
          }),
        });
    }
  }
  return turns;
}
