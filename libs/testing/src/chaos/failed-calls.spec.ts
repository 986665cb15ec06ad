import { blame, failedCallProblems, faultLabel, type InflictedFault } from './failed-calls';

const kill: InflictedFault = { what: 'kill retrieval', fromSeconds: 60, toSeconds: 64.5 };
const nats: InflictedFault = { what: 'restart-nats', fromSeconds: 62, toSeconds: 63 };
const stall: InflictedFault = { what: 'stall-gerty', fromSeconds: 10, toSeconds: 40 };

describe('blame', () => {
  it('blames a failure on the latest fault that began before it and was over at most 5 s before it', () => {
    expect(blame(61, [kill, nats, stall])).toBe(kill);
    expect(blame(63.5, [kill, nats, stall])).toBe(nats);
    expect(blame(69.5, [kill, nats, stall])).toBe(kill);
    expect(blame(20, [kill, nats, stall])).toBe(stall);
  });

  it('blames nothing before a fault began or well after it was over', () => {
    expect(blame(59.9, [kill])).toBeNull();
    expect(blame(69.6, [kill])).toBeNull();
    expect(blame(5, [])).toBeNull();
  });
});

describe('failedCallProblems', () => {
  it('passes a run whose calls failed at most 5 % of the time, each under a fault', () => {
    const failures = [
      { call: 'search' as const, atSeconds: 61, code: 'UNAVAILABLE', fault: faultLabel(kill) },
    ];
    expect(
      failedCallProblems(
        { search: { answered: 19, failed: 1 }, 'context build': { answered: 20, failed: 0 } },
        failures,
      ),
    ).toEqual([]);
  });

  it('names the kind of call that failed too often, and failures no fault explains', () => {
    const failures = [
      { call: 'context build' as const, atSeconds: 90, code: 'DEADLINE_EXCEEDED', fault: null },
      { call: 'search' as const, atSeconds: 61, code: 'UNAVAILABLE', fault: faultLabel(kill) },
    ];
    expect(
      failedCallProblems(
        { search: { answered: 100, failed: 1 }, 'context build': { answered: 9, failed: 1 } },
        failures,
      ),
    ).toEqual([
      'context builds failed 10.0 % of the time (1 of 10; at most 5 %)',
      '1 failed calls fell outside every fault: context build at 90.0 s (DEADLINE_EXCEEDED)',
    ]);
  });

  it('checks only that every failure is explained when the share is left unchecked', () => {
    const tallies = { search: { answered: 8, failed: 2 }, 'context build': { answered: 10, failed: 0 } };
    const failures = [
      { call: 'search' as const, atSeconds: 61, code: 'UNAVAILABLE', fault: faultLabel(kill) },
      { call: 'search' as const, atSeconds: 62, code: 'UNAVAILABLE', fault: faultLabel(kill) },
    ];
    expect(failedCallProblems(tallies, failures)).toEqual([
      'searches failed 20.0 % of the time (2 of 10; at most 5 %)',
    ]);
    expect(failedCallProblems(tallies, failures, null)).toEqual([]);
  });
});

describe('faultLabel', () => {
  it('says what was done and from when until when', () => {
    expect(faultLabel(kill)).toBe('60.0–64.5 s kill retrieval');
  });
});
