/** What the store says at one moment: each kind's last id handed out, and the transactions then writing. */
export interface IdObservation {
  /** Per kind of item, the last value of its id sequence (0 when none was handed out). */
  readonly lastIds: Readonly<Record<string, bigint>>;
  /** The database's transactions that were writing (e.g. `pid:xid`; the same transaction, the same key). */
  readonly writing: readonly string[];
}

/**
 * The ids below which no row can still appear. An id is handed out (nextval) before the row's
 * transaction commits, so a row with a smaller id than a visible one may still be on its way. Ids
 * read at observation A were handed out before A, to transactions writing by the next observation
 * B (an insert takes its transaction id right after its nextval); once a later observation finds
 * none of B's writers still writing, every row with an id up to A's is committed or never will be.
 * Returns those ids after each observation, null until there are three.
 */
export class SettledIds {
  private readonly seen: IdObservation[] = [];
  private settled: Readonly<Record<string, bigint>> | null = null;

  observe(now: IdObservation): Readonly<Record<string, bigint>> | null {
    const [a, b] = this.seen;
    if (a && b) {
      const still = new Set(now.writing);
      if (b.writing.every((w) => !still.has(w))) {
        this.settled = a.lastIds;
        this.seen.shift();
      } else {
        // Some of B's writers still write: keep A, and wait on now's writers (B's still among them).
        this.seen.pop();
      }
    }
    this.seen.push(now);
    return this.settled;
  }
}

/** A row the sweep read above its mark, and whether it holds a vector once the sweep embedded what it could. */
export interface SweptRow {
  readonly id: bigint;
  /** Younger than the grace period: left to the event path for now. */
  readonly young: boolean;
  readonly embedded: boolean;
}

/**
 * Where a tenant's mark may move after one page of rows that lacked a vector (in id order, above
 * `mark` and at most `settled`): up to the first row still without one (young, or its embedding
 * failed), or through the page (`more`: read the next one), or to `settled` when the page was the last.
 */
export function nextMark(
  mark: bigint,
  settled: bigint,
  page: readonly SweptRow[],
  pageSize: number,
): { mark: bigint; more: boolean } {
  const waiting = page.find((row) => row.young || !row.embedded);
  if (waiting) return { mark: waiting.id - 1n > mark ? waiting.id - 1n : mark, more: false };
  if (page.length < pageSize) return { mark: settled, more: false };
  return { mark: page[page.length - 1]!.id, more: true };
}
