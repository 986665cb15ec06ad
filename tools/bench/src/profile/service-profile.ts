import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, type ServiceProcess } from '@engram/testing';
import { summarizeCpuProfile, type ProfileSummary } from './cpu-profile-summary';

/**
 * A V8 CPU profile of one service over a measured window: start the service with `env`, call
 * `begin()` when the measurement starts and `end()` when it stops (cpu-profiler.preload.ts).
 * Profiles are large and machine-specific: they go outside the repository (open them in
 * Chrome DevTools or speedscope).
 */
export class ServiceProfile {
  readonly file: string;
  private windows = 0;

  constructor(name: string) {
    const dir = join(tmpdir(), 'engram-bench');
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  }

  /** What the service's environment needs for the profiler to be loaded. */
  get env(): Record<string, string> {
    return {
      NODE_OPTIONS:
        `${process.env['NODE_OPTIONS'] ?? ''} --require ${join(__dirname, 'cpu-profiler.preload.js')}`.trim(),
      ENGRAM_BENCH_CPU_PROFILE: this.file,
    };
  }

  /** Discards what was sampled so far: the measured window starts. */
  begin(service: ServiceProcess): void {
    service.kill('SIGWINCH');
  }

  /** Ends the window and summarises the profile written (each window in a file of its own: `…-<n>.cpuprofile`). */
  async end(service: ServiceProcess): Promise<ProfileSummary> {
    service.kill('SIGWINCH');
    await waitFor('the CPU profile', async () => existsSync(this.file), 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const file = this.file.replace(/\.cpuprofile$/, `-${++this.windows}.cpuprofile`);
    renameSync(this.file, file);
    return summarizeCpuProfile(file);
  }
}
