import { compactHeadline, leafLatencies, leavesPerSecond } from './compact-report';

describe('compact bench report', () => {
  it('measures each leaf from its newest message stored to its first announcement', () => {
    const result = leafLatencies(
      [
        { summaryId: '1', receivedAtMs: 1_300 },
        { summaryId: '2', receivedAtMs: 2_500 },
        { summaryId: '1', receivedAtMs: 9_000 }, // a repeat: counted at the first
        { summaryId: '9', receivedAtMs: 3_000 }, // no such leaf
      ],
      [
        { summaryId: '1', crossedAtMs: 1_000, createdAtMs: 1_100 },
        { summaryId: '2', crossedAtMs: 2_000, createdAtMs: 2_050 },
        { summaryId: '3', crossedAtMs: 2_000, createdAtMs: 2_050 }, // not announced in the window
      ],
    );
    expect(result.announced).toMatchObject({ count: 2, p50Ms: 300, p95Ms: 500, maxMs: 500 });
    expect(result.written).toMatchObject({ count: 2, p50Ms: 50, p95Ms: 100 });
    expect(result.unmatched).toBe(1);
  });

  it('leaves per second over the time from the start to the last leaf', () => {
    expect(leavesPerSecond(100, 1_000, 11_000)).toBe(10);
    expect(leavesPerSecond(0, 1_000, 11_000)).toBe(0);
    expect(leavesPerSecond(5, 1_000, 1_000)).toBe(0);
  });

  it('--json prints exactly leavesPerSecond and leafLatencyP95Ms', () => {
    const line = JSON.stringify(
      compactHeadline({
        backlog: { leavesPerSecond: 12.345 } as never,
        steady: { latency: { announced: { p95Ms: 812.6 } } } as never,
      }),
    );
    expect(line).toBe('{"leavesPerSecond":12.3,"leafLatencyP95Ms":813}');
  });
});
