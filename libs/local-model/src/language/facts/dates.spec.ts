import { localDay, resolveRelativeDates } from './dates';

// Sunday 2026-02-22, 10:00 UTC.
const at = new Date('2026-02-22T10:00:00Z');

function resolve(
  text: string,
  direction: 'past' | 'future' | 'any' = 'any',
  extra: Record<string, unknown> = {},
): string {
  return resolveRelativeDates(text, at, { direction, ...extra }).text;
}

describe('resolveRelativeDates', () => {
  it('makes "tomorrow" the day after the message date', () => {
    const result = resolveRelativeDates('I fly to Paris tomorrow', at, { direction: 'future' });
    expect(result.text).toBe('I fly to Paris on 2026-02-23');
    expect(result.dates[0].date.toISOString()).toBe('2026-02-23T00:00:00.000Z');
    expect(result.dates[0].precision).toBe('day');
  });

  it.each([
    ['I went there yesterday', 'past', 'I went there on 2026-02-21'],
    ['I have a meeting next Friday', 'future', 'I have a meeting on 2026-02-27'],
    ['I have a meeting on Friday', 'future', 'I have a meeting on 2026-02-27'],
    ['I saw her on Friday', 'past', 'I saw her on 2026-02-20'],
    ['I went to Paris last week', 'past', 'I went to Paris in the week of 2026-02-09'],
    ['I start next week', 'future', 'I start in the week of 2026-02-23'],
    ['I moved last month', 'past', 'I moved in 2026-01'],
    ['I quit two years ago', 'past', 'I quit in 2024'],
    ['I started 3 days ago', 'past', 'I started on 2026-02-19'],
    ['I fly in June', 'future', 'I fly in 2026-06'],
    ['I flew home in June', 'past', 'I flew home in 2025-06'],
    ['due by Friday', 'future', 'due by 2026-02-27'],
    ['in London from March 5 to March 10', 'future', 'in London from 2026-03-05 to 2026-03-10'],
    ['dentist tomorrow at 3pm', 'future', 'dentist on 2026-02-23 at 15:00'],
    ['call at 5pm', 'future', 'call on 2026-02-22 at 5pm'],
    ['this morning I ran', 'past', 'on the morning of 2026-02-22 I ran'],
    ['hiking last weekend', 'past', 'hiking on the weekend of 2026-02-14'],
    ['Japan last summer', 'past', 'Japan in the summer of 2025'],
    ['Japan next winter', 'future', 'Japan in the winter of 2026/27'],
    ['I moved recently', 'past', 'I moved shortly before 2026-02-22'],
    ['moving soon', 'future', 'moving soon after 2026-02-22'],
    ['born on 3 March 1990', 'past', 'born on 1990-03-03'],
  ] as const)('%j (%s) → %j', (text, direction, expected) => {
    expect(resolve(text, direction)).toBe(expected);
  });

  it.each([
    ['a nurse for 5 years'],
    ['I run every Sunday'],
    ['I run on Sundays'],
    ['I live in Lisbon now'],
    ['I work at Sun Microsystems'],
    ['I may go'],
    ['a morning person'],
    ['I usually wake up at 6'],
  ])('leaves %j alone', (text) => {
    expect(resolve(text)).toBe(text);
  });

  it('keeps a month-day without a year when asked (birthdays recur)', () => {
    expect(resolve('my birthday is March 3rd', 'any', { keepYearless: true })).toBe(
      'my birthday is March 3rd',
    );
  });

  it('leaves clock times alone when time-only references are not wanted', () => {
    expect(resolve('I wake up at 6am', 'any', { allowTimeOnly: false })).toBe('I wake up at 6am');
  });

  it('resolves against the speaker’s day, not UTC, when an offset is given', () => {
    const lateEvening = new Date('2026-02-22T23:30:00Z');
    expect(resolveRelativeDates('tomorrow', lateEvening).text).toBe('on 2026-02-23');
    expect(resolveRelativeDates('tomorrow', lateEvening, { timezoneOffsetMinutes: 120 }).text).toBe(
      'on 2026-02-24',
    );
    expect(localDay(lateEvening, 120).toISOString()).toBe('2026-02-23T00:00:00.000Z');
  });
});
