/** What a summary covers: its time span and how many transcript messages lie under it. */
export interface SummarySpan {
  readonly earliestAt: Date;
  readonly latestAt: Date;
  readonly messageCount: number;
}

/** The span of a parent: from its earliest child's start to its latest child's end, every message under them. */
export function spanOf(children: readonly SummarySpan[]): SummarySpan {
  if (children.length === 0) throw new Error('a summary spans at least one child');
  return {
    earliestAt: new Date(Math.min(...children.map((c) => c.earliestAt.getTime()))),
    latestAt: new Date(Math.max(...children.map((c) => c.latestAt.getTime()))),
    messageCount: children.reduce((n, c) => n + c.messageCount, 0),
  };
}

/** The span of a leaf: its messages' times (in any order) and their number. */
export function spanOfMessages(times: readonly Date[]): SummarySpan {
  return spanOf(times.map((at) => ({ earliestAt: at, latestAt: at, messageCount: 1 })));
}
