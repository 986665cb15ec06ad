import { Logger } from '@nestjs/common';
import { ShutdownBudget } from '../bootstrap/shutdown-budget';
import { PeriodicTask, type PeriodicTaskOptions } from './periodic-task';

/** A run the spec ends by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PeriodicTask', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  const task = <T>(options: Partial<PeriodicTaskOptions<T>> & Pick<PeriodicTaskOptions<T>, 'run'>) =>
    new PeriodicTask<T>({
      name: 'the test task',
      intervalMs: 1000,
      shutdown: new ShutdownBudget(),
      ...options,
    });

  it('runs one interval after start, then one interval after each run ended', async () => {
    const starts: number[] = [];
    const loop = task({
      run: async () => {
        starts.push(Date.now());
        await new Promise((r) => setTimeout(r, 300));
      },
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(starts).toEqual([]);
    await jest.advanceTimersByTimeAsync(3000);
    expect(starts).toEqual([1000, 2300, 3600]);
    await loop.stop();
  });

  it('runs at once when immediate, and asks a function interval after each run (backoff)', async () => {
    const starts: number[] = [];
    let runs = 0;
    const loop = task({
      immediate: true,
      run: async () => void starts.push(Date.now()),
      intervalMs: () => 1000 * 2 ** runs++,
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(7000);
    expect(starts).toEqual([0, 1000, 3000, 7000]);
    await loop.stop();
  });

  it('never overlaps: a run asked for while one is in progress is that run', async () => {
    const slow = deferred();
    const run = jest.fn(() => slow.promise.then(() => 'done'));
    const loop = task({ run });
    loop.start();
    await jest.advanceTimersByTimeAsync(1000);
    const asked = loop.runNow();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    slow.resolve();
    expect(await asked).toBe('done');
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await loop.stop();
  });

  it('logs a failed run (a throw too) and goes on', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = task({
      run: () => {
        runs += 1;
        if (runs === 1) throw new Error('thrown');
        if (runs === 2) return Promise.reject(new Error('rejected'));
        return Promise.resolve(runs);
      },
      onError: (error) => errors.push((error as Error).message),
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(errors).toEqual(['thrown', 'rejected']);
    expect(runs).toBe(3);
    await expect(loop.runNow()).resolves.toBe(4);
    await loop.stop();
  });

  it('goes on when the error handler itself throws', async () => {
    const run = jest.fn(() => Promise.reject(new Error('down')));
    const loop = task({
      run,
      onError: () => {
        throw new Error('the logger broke');
      },
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(2);
    await loop.stop();
  });

  it('stops: waits for the run in progress, starts none after, and leaves no timer', async () => {
    const slow = deferred();
    const run = jest.fn(() => slow.promise);
    const loop = task({ run });
    loop.start();
    await jest.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    expect(loop.stopping).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    slow.resolve();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(jest.getTimerCount()).toBe(0);
    loop.start();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives up on a run that outlasts the shutdown grace, less the reserve', async () => {
    const shutdown = new ShutdownBudget().begin(2000);
    const loop = task({ run: () => new Promise<never>(() => undefined), shutdown, immediate: true });
    loop.start();
    let stopped = false;
    const stopping = loop.stop(500).then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(1099);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('keeps no process alive: its timer is unref’d, and a delay past what setTimeout holds is capped', async () => {
    const setTimeoutSpy = jest.spyOn(global, 'setTimeout');
    const loop = task({ run: () => Promise.resolve(), intervalMs: 30 * 86_400_000 });
    loop.start();
    const timer = setTimeoutSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    expect(setTimeoutSpy.mock.calls[0]![1]).toBe(2 ** 31 - 1);
    await loop.stop();
    setTimeoutSpy.mockRestore();
  });
});
