import { findQueryTime, TIME_WINDOW_SLACK_DAYS } from './query-time';

const now = new Date('2026-11-21T12:00:00Z');
const day = 24 * 3600 * 1000;

describe('findQueryTime', () => {
  it('takes a named day out of the text and turns it into a window around that day', () => {
    const q = findQueryTime('What did Maria start on 3 June, 2023?', now);
    expect(q.text).toBe('What did Maria start ?');
    expect(q.window).not.toBeNull();
    const june3 = Date.parse('2023-06-03T12:00:00Z');
    expect(q.window!.from.getTime()).toBeLessThan(june3 - 4 * day);
    expect(q.window!.to.getTime()).toBeGreaterThan(june3 + 4 * day);
    expect(q.window!.to.getTime() - q.window!.from.getTime()).toBeLessThan(13 * day);
  });

  it('widens a month to the whole month', () => {
    const q = findQueryTime('which games in August 2023', now);
    expect(q.window!.from.getTime()).toBeLessThanOrEqual(Date.parse('2023-08-01T00:00:00Z'));
    expect(q.window!.to.getTime()).toBeGreaterThanOrEqual(Date.parse('2023-08-31T00:00:00Z'));
  });

  it('reads relative days against now', () => {
    const q = findQueryTime('what did we decide yesterday about the deploy', now);
    expect(q.text).toBe('what did we decide about the deploy');
    expect(q.window!.from.getTime()).toBeLessThan(now.getTime() - day);
    expect(q.window!.to.getTime()).toBeGreaterThan(now.getTime() - day);
  });

  it('reads "last week" as the seven days before now, with the slack, not as one day', () => {
    const q = findQueryTime('what did Ada cook last week?', now);
    expect(q.text).toBe('what did Ada cook ?');
    const slack = TIME_WINDOW_SLACK_DAYS * day;
    expect(q.window).toEqual({
      from: new Date(now.getTime() - 7 * day - slack),
      to: new Date(now.getTime() + slack),
    });
    // Yesterday evening is last week; a month before is not.
    const inWindow = (at: number) => at >= q.window!.from.getTime() && at <= q.window!.to.getTime();
    expect(inWindow(now.getTime() - 0.8 * day)).toBe(true);
    expect(inWindow(now.getTime() - 30 * day)).toBe(false);
    expect(findQueryTime('the past week', now).window).toEqual(q.window);
  });

  it('reads the other recent stretches up to now too, and a day ago as that day', () => {
    const slack = TIME_WINDOW_SLACK_DAYS * day;
    const windowOf = (query: string) => {
      const w = findQueryTime(query, now).window!;
      return [
        (now.getTime() - w.from.getTime() - slack) / day,
        (w.to.getTime() - now.getTime() - slack) / day,
      ];
    };
    // [days from the start to now, days from now to the end], slack left out.
    expect(windowOf('the last two weeks')).toEqual([14, 0]);
    expect(windowOf('in the last 3 days')).toEqual([3, 0]);
    expect(windowOf('last month')).toEqual([31, 0]);
    expect(windowOf('three days ago')).toEqual([3, -2]);
    expect(windowOf('yesterday')).toEqual([1, 0]);
    // The same words as of another moment name another stretch.
    const earlier = new Date('2026-06-01T08:00:00Z');
    expect(findQueryTime('last week', earlier).window!.to).toEqual(new Date(earlier.getTime() + slack));
  });

  it('leaves a query without a date alone, and a time of day is not a date', () => {
    expect(findQueryTime('what pets does Melanie have?', now)).toEqual({
      text: 'what pets does Melanie have?',
      window: null,
    });
    expect(findQueryTime('the meeting at 5 pm', now).window).toBeNull();
  });
});
