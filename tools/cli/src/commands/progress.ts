import { Presets, SingleBar } from 'cli-progress';

/** A progress bar on stderr, or nothing: off when stderr is not a terminal or the output is --json. */
export interface Progress {
  start(total: number): void;
  increment(by: number): void;
  stop(): void;
}

const NONE: Progress = { start: () => undefined, increment: () => undefined, stop: () => undefined };

/** A bar labelled `label` (cli-progress) when `enabled` and stderr is a terminal. */
export function progressBar(label: string, enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) return NONE;
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 100,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    start(total) {
      bar.start(total, 0);
      started = true;
    },
    increment(by) {
      if (started) bar.increment(by);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
