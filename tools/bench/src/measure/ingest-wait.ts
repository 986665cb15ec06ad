/** One poll of an ingestion: message rows stored, how many lack a vector, and rows that will never come. */
export interface IngestPoll {
  readonly rows: number;
  readonly missing: number;
  /** Messages of turns that were dead-lettered: never stored, however long one waits. */
  readonly deadRows: number;
}

export interface IngestWaitLimits {
  readonly expectedRows: number;
  /** Give up this long after the wait started … */
  readonly timeoutMs: number;
  /** … or when it came no closer to the end for this long. */
  readonly stallMs: number;
}

/** What a poll decides: wait on, every row stored with its vector, or stop (why). */
export type IngestVerdict =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'complete' }
  | { readonly kind: 'stopped'; readonly reason: string };

/**
 * Decides, poll by poll, when waiting for an ingestion ends. Progress is coming closer to the
 * end — more rows stored, more with a vector, more turns dead-lettered than ever before — not
 * any change of the counts: counts that go back and forth keep nothing waiting. Once every
 * row is stored with its vector or belongs to a dead-lettered turn, nothing more can come and
 * the wait ends at once instead of after `stallMs`.
 */
export class IngestWait {
  private best = { rows: -1, embedded: -1, deadRows: -1 };
  private lastProgressAt: number;

  constructor(
    private readonly limits: IngestWaitLimits,
    private readonly startedAt: number,
  ) {
    this.lastProgressAt = startedAt;
  }

  observe(poll: IngestPoll, at: number): IngestVerdict {
    const embedded = poll.rows - poll.missing;
    if (poll.rows > this.best.rows || embedded > this.best.embedded || poll.deadRows > this.best.deadRows) {
      this.best = {
        rows: Math.max(this.best.rows, poll.rows),
        embedded: Math.max(this.best.embedded, embedded),
        deadRows: Math.max(this.best.deadRows, poll.deadRows),
      };
      this.lastProgressAt = at;
    }
    const { expectedRows, timeoutMs, stallMs } = this.limits;
    if (poll.rows >= expectedRows && poll.missing === 0) return { kind: 'complete' };
    if (poll.deadRows > 0 && poll.rows + poll.deadRows >= expectedRows && poll.missing === 0)
      return { kind: 'stopped', reason: `every row not stored belongs to a dead-lettered turn` };
    if (at - this.startedAt > timeoutMs)
      return { kind: 'stopped', reason: `timed out after ${Math.round(timeoutMs / 1000)} s` };
    if (at - this.lastProgressAt > stallMs)
      return { kind: 'stopped', reason: `no progress for ${Math.round(stallMs / 1000)} s` };
    return { kind: 'waiting' };
  }
}

/** A turn the run published, as far as telling what became of it goes. */
export interface PublishedTurn {
  readonly agent: string;
  readonly turnId: string;
  /** Nats-Msg-Id of its publish: how its dead letter names it. */
  readonly msgId: string;
}

/** A turn that is not in the store, and what is known of why. */
export interface MissingTurn {
  readonly agent: string;
  readonly turnId: string;
  /** The dead letter's cause and reason, or what else is known. */
  readonly why: string;
}

/**
 * The published turns the store lacks, in publish order, each with its dead letter's cause
 * and reason (by msg id) or, without one, that it is still on its way or was lost.
 */
export function missingTurns(
  published: readonly PublishedTurn[],
  stored: ReadonlySet<string>,
  deadLetters: ReadonlyMap<string, { readonly cause: string; readonly reason: string }>,
): MissingTurn[] {
  return published
    .filter((t) => !stored.has(storedTurnKey(t.agent, t.turnId)))
    .map((t) => {
      const letter = deadLetters.get(t.msgId);
      return {
        agent: t.agent,
        turnId: t.turnId,
        why: letter
          ? `dead-lettered (${letter.cause}): ${letter.reason}`
          : 'no dead letter: still on its way, or lost',
      };
    });
}

/** How `stored` names a turn: its agent and turn id. */
export function storedTurnKey(agent: string, turnId: string): string {
  return `${agent}\u0000${turnId}`;
}

/** The missing turns in a few lines: up to `max` of them, then how many more. */
export function describeMissingTurns(missing: readonly MissingTurn[], max = 20): string {
  const lines = missing.slice(0, max).map((t) => `  ${t.agent} ${t.turnId}: ${t.why}`);
  if (missing.length > max) lines.push(`  … and ${missing.length - max} more`);
  return lines.join('\n');
}
