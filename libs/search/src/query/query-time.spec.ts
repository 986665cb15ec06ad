import { findQueryTime } from './query-time';

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

  it('leaves a query without a date alone, and a time of day is not a date', () => {
    expect(findQueryTime('what pets does Melanie have?', now)).toEqual({
      text: 'what pets does Melanie have?',
      window: null,
    });
    expect(findQueryTime('the meeting at 5 pm', now).window).toBeNull();
  });
});
