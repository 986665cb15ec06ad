/**
 * Preloaded into a service (`NODE_OPTIONS=--require …/cpu-profiler.preload.js`, since
 * Node refuses --cpu-prof in NODE_OPTIONS). Samples the CPU from start-up; the first
 * SIGWINCH discards what was sampled so far and starts again (the measurement begins),
 * the second writes the V8 .cpuprofile to $ENGRAM_BENCH_CPU_PROFILE; a third starts another
 * window, a fourth writes it, and so on (ServiceProfile moves each file away). Signals rather
 * than exit, because NestJS re-raises SIGTERM and the process then ends without an
 * 'exit' event; SIGWINCH because NestJS shuts down on SIGUSR2 (and Node keeps SIGUSR1
 * for its inspector), and a service without a terminal never gets it otherwise.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const target = process.env['ENGRAM_BENCH_CPU_PROFILE'];
if (target) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  let signals = 0;
  process.on('SIGWINCH', () => {
    signals++;
    if (signals % 2 === 1) {
      // Stopping a stopped profiler (every window after the first) only answers an error.
      session.post('Profiler.stop', () => session.post('Profiler.start'));
      return;
    }
    session.post('Profiler.stop', (error, result) => {
      if (error) process.stderr.write(`cpu profile not written: ${error.message}\n`);
      else writeFileSync(target, JSON.stringify(result.profile));
    });
  });
}
