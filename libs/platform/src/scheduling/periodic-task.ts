import { Logger } from '@nestjs/common';
import type { ShutdownBudget } from '../bootstrap/shutdown-budget';

/** The longest delay setTimeout keeps (a longer one fires at once, with a warning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface PeriodicTaskOptions<T> {
  /** Names the work in logs ("the outbox sweep"). */
  readonly name: string;
  /** One run. A failure is logged (onError) and the next run comes as usual. */
  readonly run: () => Promise<T>;
  /** The wait from the end of one run to the start of the next; a function is asked after each run (backoff). */
  readonly intervalMs: number | (() => number);
  /** The first run at start(), not one interval later. */
  readonly immediate?: boolean;
  /** stop() waits for the run in progress only while this budget lasts. */
  readonly shutdown: ShutdownBudget;
  /** How a failed run is logged; by default a warning naming the task. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Work a service does every so often, in the background: the one timer loop of Engram.
 * Runs never overlap (the next is timed from the end of the last, and a run asked for while one
 * is in progress is that run); a failed run is logged and the loop goes on; the timer is unref'd
 * (it never keeps a process alive) and stop() clears it, then waits for the run in progress while
 * the shutdown budget lasts.
 */
export class PeriodicTask<T = unknown> {
  private readonly logger = new Logger(PeriodicTask.name);
  private timer?: NodeJS.Timeout;
  private current?: Promise<T | undefined>;
  private started = false;
  private stopped = false;

  constructor(private readonly options: PeriodicTaskOptions<T>) {}

  /** True once stop() was called: a long run checks it to end at its next step. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Starts the loop (once; never after stop()): the first run now when `immediate`, else one interval from now. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    if (this.options.immediate) this.tick();
    else this.schedule();
  }

  /** A run now, or the one in progress (never two at once); resolves to its result, undefined if it failed (logged). */
  runNow(): Promise<T | undefined> {
    this.current ??= new Promise<T>((resolve) => resolve(this.options.run()))
      .catch((error: unknown) => {
        this.failed(error);
        return undefined;
      })
      .finally(() => (this.current = undefined));
    return this.current;
  }

  /** Clears the timer (no run begins after it) and waits for the run in progress, within the shutdown budget less `reserveMs`. */
  async stop(reserveMs = 0): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.current) await this.options.shutdown.within(this.options.name, this.current, reserveMs);
  }

  /** One run, then the timer for the next (runNow never rejects). */
  private tick(): void {
    void this.runNow().finally(() => this.schedule());
  }

  /** The timer for the next run, unless stopped; unref'd, so it never holds the process. */
  private schedule(): void {
    if (this.stopped) return;
    const { intervalMs } = this.options;
    const delay = typeof intervalMs === 'function' ? intervalMs() : intervalMs;
    this.timer = setTimeout(() => this.tick(), Math.min(Math.max(0, delay), MAX_TIMER_MS));
    this.timer.unref();
  }

  /** Logs a failed run; a logger that throws does not stop the loop either. */
  private failed(error: unknown): void {
    try {
      if (this.options.onError) this.options.onError(error);
      else
        this.logger.warn(
          `${this.options.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
    } catch {
      // Nothing left to tell it to.
    }
  }
}
