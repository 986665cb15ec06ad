import { create, PatrolReportSchema, timestampFromDate } from '@engram/contracts';
import { renderPatrolReport } from './patrol-report';

describe('renderPatrolReport', () => {
  it('prints a line per step: its counts, skipped with the reason, or no change', () => {
    const report = create(PatrolReportSchema, {
      runId: '42',
      agent: 'ada',
      resumed: true,
      startedAt: timestampFromDate(new Date('2026-11-22T03:00:00.250Z')),
      finishedAt: timestampFromDate(new Date('2026-11-22T03:01:10Z')),
      steps: [
        { step: 'scenes', counts: { nodes: 3, parse_failed: 1 } },
        { step: 'sessions', counts: {} },
        { step: 'decay', counts: { dying: 1, dead: 2 } },
        { step: 'consolidation', skipped: true, reason: 'no language model answered' },
        { step: 'think', skipped: true },
      ],
    });
    expect(renderPatrolReport(report)).toBe(
      [
        'patrol run 42 of ada (resumed an unfinished run) 2026-11-22T03:00:00Z → 2026-11-22T03:01:10Z',
        'scenes         nodes 3 · parse_failed 1',
        'sessions       no change',
        'decay          dying 1 · dead 2',
        'consolidation  skipped: no language model answered',
        'think          skipped',
      ].join('\n'),
    );
  });

  it('says when no step was reported', () => {
    expect(renderPatrolReport(create(PatrolReportSchema, { runId: '7', agent: 'ada' }))).toBe(
      'patrol run 7 of ada\n(no steps reported)',
    );
  });
});
