/** A stored message as the scratch database has it (SELECT id, agent, turn_id FROM messages). */
export interface StoredMessageRow {
  readonly id: string;
  readonly agent: string;
  readonly turnId: string;
}

/**
 * Which turn each stored message is, per agent (a LoCoMo conversation, a LongMemEval haystack):
 * hits name message ids, evidence names turn ids. `turnKey` spells a stored turn id as the
 * evidence does (LoCoMo's "D30:05" = "D30:5"); by default as stored.
 */
export class TurnIndex {
  private readonly byMessage = new Map<string, { agent: string; turn: string }>();
  private readonly turnsByAgent = new Map<string, Set<string>>();

  constructor(rows: Iterable<StoredMessageRow>, turnKey: (turnId: string) => string = (id) => id) {
    for (const row of rows) {
      const turn = turnKey(row.turnId);
      this.byMessage.set(String(row.id), { agent: row.agent, turn });
      let turns = this.turnsByAgent.get(row.agent);
      if (!turns) this.turnsByAgent.set(row.agent, (turns = new Set()));
      turns.add(turn);
    }
  }

  /** The ingested turns of an agent's conversations (empty when it has none). */
  turnsOf(agent: string): ReadonlySet<string> {
    return this.turnsByAgent.get(agent) ?? new Set();
  }

  /** The turn of a message of `agent`; undefined for an unknown message or another agent's. */
  turnOf(messageId: string, agent: string): string | undefined {
    const hit = this.byMessage.get(messageId);
    return hit && hit.agent === agent ? hit.turn : undefined;
  }
}
