import {
  create,
  encodeMessage,
  isValidToken,
  Subjects,
  timestampFromDate,
  TurnEventSchema,
} from '@engram/contracts';
import type { CorpusTurn } from '../corpus/turn-corpus';
import type { LongMemEvalQuestion } from './longmemeval-file';

/** Where one question's haystack went: its agent, and each ingested turn's session and evidence. */
export interface Haystack {
  readonly agent: string;
  readonly turns: CorpusTurn[];
  /** The released session id of each turn id (a session id repeated in the haystack is still one session). */
  readonly sessionOfTurn: ReadonlyMap<string, string>;
  /** Turn ids of the turns with has_answer (an empty one among them cannot be ingested, and counts as missed). */
  readonly evidenceTurns: ReadonlySet<string>;
  readonly evidenceSessions: ReadonlySet<string>;
  /** Turns with empty content: a runtime cannot publish them, so they are not. */
  readonly emptyTurns: number;
}

/**
 * A question's haystack as an agent runtime would publish it: agent = the question id; each
 * haystack session one conversation, its session key the session id ("<id>~2" for the second
 * session of the same id in one haystack); each turn one TurnEvent of one message, turnId
 * "<session key>:<index in the session>", its role as given, occurredAt the session's date
 * (the turns of a session share it, so their order is the publish order), no author.
 * Nats-Msg-Id "<agent>/<turnId>".
 */
export function haystackOf(question: LongMemEvalQuestion, tenantId: string): Haystack {
  const agent = question.id;
  if (!isValidToken(agent))
    throw new Error(
      `question_id "${agent}" cannot name an agent: letters, digits, "_" and "-" only (at most 64)`,
    );
  const turns: CorpusTurn[] = [];
  const sessionOfTurn = new Map<string, string>();
  const evidenceTurns = new Set<string>();
  const seen = new Map<string, number>();
  let emptyTurns = 0;
  for (const session of question.sessions) {
    const count = (seen.get(session.id) ?? 0) + 1;
    seen.set(session.id, count);
    const sessionKey = count === 1 ? session.id : `${session.id}~${count}`;
    const occurredAt = timestampFromDate(session.date);
    session.turns.forEach((turn, i) => {
      const turnId = `${sessionKey}:${i}`;
      sessionOfTurn.set(turnId, session.id);
      if (turn.hasAnswer) evidenceTurns.add(turnId);
      if (turn.content.trim() === '') {
        emptyTurns++;
        return;
      }
      const payload = encodeMessage(
        TurnEventSchema,
        create(TurnEventSchema, {
          turnId,
          sessionKey,
          occurredAt,
          messages: [{ role: turn.role, content: turn.content }],
        }),
      );
      turns.push({
        subject: Subjects.turn(tenantId, agent),
        tenantId,
        agent,
        sessionKey,
        turnId,
        msgId: `${agent}/${turnId}`,
        payload,
        messageCount: 1,
        payloadBytes: payload.byteLength,
      });
    });
  }
  const present = new Set(question.sessions.map((s) => s.id));
  return {
    agent,
    turns,
    sessionOfTurn,
    evidenceTurns,
    evidenceSessions: new Set(question.answerSessionIds.filter((id) => present.has(id))),
    emptyTurns,
  };
}
