/**
 * The searches in flight in this process, which a tenant's load steps aside for: between two of
 * its slices a load waits until none is running, but never longer than a bound, so it always
 * moves on (under a steady stream of searches, one slice per bound).
 */
export class Foreground {
  private active = 0;
  private waiting: Array<() => void> = [];

  /** Runs a search, counted as in flight until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      if (--this.active === 0) this.wakeAll();
    }
  }

  /** Resolves at the next turn of the event loop once no search is in flight, or after `boundMs` at the latest. */
  quiet(boundMs: number): Promise<void> {
    if (this.active === 0) return nextTurn();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((w) => w !== wake);
        void nextTurn().then(resolve);
      };
      const timer = setTimeout(wake, boundMs);
      this.waiting.push(wake);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}

/** The next turn of the event loop, after the I/O already waiting. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
