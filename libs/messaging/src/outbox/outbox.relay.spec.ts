import { idleSweepDelayMs } from './outbox.relay';

describe('the outbox sweep of an idle relay', () => {
  it('waits the interval while there is work, then twice as long per idle sweep, at most eight intervals', () => {
    expect([0, 1, 2, 3, 4, 10].map((idle) => idleSweepDelayMs(1000, idle))).toEqual([
      1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });
});
