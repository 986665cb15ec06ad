import { Logger } from '@nestjs/common';
import { drainReserveMs, exitMarginMs, ShutdownBudget } from './shutdown-budget';

describe('ShutdownBudget', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  const never = () => new Promise<never>(() => undefined);

  it('keeps a margin before the grace is over, and a reserve for the drain', () => {
    expect(exitMarginMs(15_000)).toBe(1000);
    expect(exitMarginMs(2000)).toBe(400);
    expect(drainReserveMs(15_000)).toBe(2000);
    expect(drainReserveMs(2000)).toBe(500);
    const budget = new ShutdownBudget().begin(2000);
    expect(budget.remainingMs()).toBe(1600);
    expect(budget.remainingMs(budget.drainReserveMs())).toBe(1100);
  });

  it('begins once: a later step does not move the deadline', () => {
    const budget = new ShutdownBudget().begin(2000);
    jest.advanceTimersByTime(1000);
    budget.begin(2000);
    expect(budget.remainingMs()).toBe(600);
    jest.advanceTimersByTime(5000);
    expect(budget.remainingMs()).toBe(0);
  });

  it('gives up on work that outlasts the budget, less the reserve', async () => {
    const budget = new ShutdownBudget().begin(2000);
    const waited = budget.within('hanging work', never(), 500);
    await jest.advanceTimersByTimeAsync(1099);
    let result: boolean | undefined;
    void waited.then((r) => (result = r));
    await Promise.resolve();
    expect(result).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(await waited).toBe(false);
  });

  it('answers true for work done in time, failed or not', async () => {
    const budget = new ShutdownBudget().begin(2000);
    await expect(budget.within('done', Promise.resolve('x'))).resolves.toBe(true);
    await expect(budget.within('failed', Promise.reject(new Error('gone')))).resolves.toBe(true);
  });

  it('gives up at once when nothing is left, but still takes what is already done', async () => {
    const budget = new ShutdownBudget().begin(2000);
    jest.advanceTimersByTime(2000);
    const waited = budget.within('late', never());
    await jest.advanceTimersByTimeAsync(0);
    expect(await waited).toBe(false);
    await expect(budget.within('done', Promise.resolve())).resolves.toBe(true);
  });

  it('sets no limit before shutdown began (an app closed without a signal)', async () => {
    const budget = new ShutdownBudget();
    expect(budget.remainingMs()).toBe(Infinity);
    let resolveWork!: () => void;
    const waited = budget.within('work', new Promise<void>((r) => (resolveWork = r)));
    await jest.advanceTimersByTimeAsync(60_000);
    resolveWork();
    expect(await waited).toBe(true);
  });
});
