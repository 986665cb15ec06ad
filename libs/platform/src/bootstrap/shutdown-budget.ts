import { Injectable, Logger } from '@nestjs/common';

/** Kept free at the end of the grace for what follows the steps (pools, logs, exit), so they end before the watchdog. */
export function exitMarginMs(graceMs: number): number {
  return Math.min(1000, Math.floor(graceMs / 5));
}

/** Kept free after the handlers' wait for the connection's drain and the pools, so those get a turn. */
export function drainReserveMs(graceMs: number): number {
  return Math.min(2000, Math.floor(graceMs / 4));
}

/**
 * The one deadline of a process's shutdown. It begins with SIGTERM (or with the first step
 * that stops, when the app is closed without a signal), and every step that waits on a
 * dependency (NATS, Postgres, a model) waits only until it: the process is gone within
 * SHUTDOWN_GRACE_MS whatever its dependencies are doing.
 */
@Injectable()
export class ShutdownBudget {
  private readonly logger = new Logger(ShutdownBudget.name);
  private end?: number;
  private graceMs = 0;

  /** Starts the clock; the first call wins. */
  begin(graceMs: number): this {
    if (this.end === undefined) {
      this.graceMs = graceMs;
      this.end = Date.now() + graceMs - exitMarginMs(graceMs);
    }
    return this;
  }

  /** Milliseconds left for the steps, less `reserveMs` kept for later ones (no limit before it began). */
  remainingMs(reserveMs = 0): number {
    return this.end === undefined ? Infinity : Math.max(0, this.end - reserveMs - Date.now());
  }

  /** What the handlers' wait leaves for the connection's drain and the pools. */
  drainReserveMs(): number {
    return drainReserveMs(this.graceMs);
  }

  /**
   * Waits for `work` while the budget (less `reserveMs`) lasts; false, with a warning naming
   * `what`, when it gave up (the work goes on unawaited: the process is leaving). A failure
   * of `work` counts as done: stopping goes on either way.
   */
  async within(what: string, work: Promise<unknown>, reserveMs = 0): Promise<boolean> {
    const settled = work.then(
      () => true,
      () => true,
    );
    if (this.end === undefined) return settled;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.remainingMs(reserveMs));
      timer.unref();
    });
    try {
      const done = await Promise.race([settled, expired]);
      if (!done) this.logger.warn(`${what}: not done within the shutdown grace; stopping without it`);
      return done;
    } finally {
      clearTimeout(timer);
    }
  }
}
