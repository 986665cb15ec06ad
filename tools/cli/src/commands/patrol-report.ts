import { timestampDate, type PatrolReport } from '@engram/contracts';

const second = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/**
 * What a patrol run changed, a line per step in the order it ran: `skipped: <reason>`, or
 * its counts as the service named them (`nodes 3 · dying 1`), or `no change`.
 */
export function renderPatrolReport(report: PatrolReport): string {
  const span =
    report.startedAt && report.finishedAt
      ? ` ${second(timestampDate(report.startedAt))} → ${second(timestampDate(report.finishedAt))}`
      : '';
  const head = `patrol run ${report.runId || '?'} of ${report.agent}${report.resumed ? ' (resumed an unfinished run)' : ''}${span}`;
  const width = Math.max(0, ...report.steps.map((s) => s.step.length));
  const lines = report.steps.map((s) => {
    const counts = Object.entries(s.counts).map(([name, n]) => `${name} ${n}`);
    const what = s.skipped
      ? `skipped${s.reason ? `: ${s.reason}` : ''}`
      : counts.length
        ? counts.join(' · ')
        : 'no change';
    return `${s.step.padEnd(width)}  ${what}`;
  });
  return [head, ...(lines.length ? lines : ['(no steps reported)'])].join('\n');
}
