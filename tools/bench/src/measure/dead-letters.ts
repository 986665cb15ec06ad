import type { JetStreamManager } from '@nats-io/jetstream';
import { DeadLetterSchema, decodeMessage, Streams } from '@engram/contracts';

/** Why a turn was dead-lettered. */
export interface TurnDeadLetter {
  readonly cause: string;
  readonly reason: string;
}

/** The dead letters of published turns, by the turn's Nats-Msg-Id; each read asks only for letters it has not seen. */
export class TurnDeadLetters {
  private readonly byMsgId = new Map<string, TurnDeadLetter>();
  private readSeq = 0;

  constructor(private readonly jsm: JetStreamManager) {}

  async read(): Promise<ReadonlyMap<string, TurnDeadLetter>> {
    const state = (await this.jsm.streams.info(Streams.deadLetters.name)).state;
    if (state.messages === 0) return this.byMsgId;
    for (let seq = Math.max(state.first_seq, this.readSeq + 1); seq <= state.last_seq; seq++) {
      const stored = await this.jsm.streams.getMessage(Streams.deadLetters.name, { seq }).catch(() => null);
      if (!stored) continue;
      const letter = decodeMessage(DeadLetterSchema, stored.data, { strict: false });
      const msgId = letter.originalHeaders['Nats-Msg-Id'];
      if (letter.stream === Streams.turns.name && msgId)
        this.byMsgId.set(msgId, { cause: letter.cause, reason: letter.reason });
    }
    this.readSeq = state.last_seq;
    return this.byMsgId;
  }
}
