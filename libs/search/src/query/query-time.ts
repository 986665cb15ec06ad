import * as chrono from 'chrono-node';

/** The stretch of time a query asks about ("on 3 June, 2023", "in March", "last week"). */
export interface TimeWindow {
  readonly from: Date;
  readonly to: Date;
}

export interface QueryWithTime {
  /** The query without its time expression (dates are matched against times, not words). */
  readonly text: string;
  readonly window: TimeWindow | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** People misplace events by a few days ("last week", "the weekend before"): the window is that much wider on both sides. */
export const TIME_WINDOW_SLACK_DAYS = 5;
/**
 * "last week", "the past 3 days", "last couple of months": chrono dates them one week (days,
 * months) before `now`, as a single day; they mean the whole stretch from then up to `now`.
 */
const RECENT_STRETCH = /^(?:last|past)\s+(?:[\w-]+\s+){0,2}(?:days?|weeks?|fortnight|months?|years?)$/i;

/**
 * Finds the first date the query names, relative to `now` for expressions like
 * "yesterday" (`now` is the moment the search is asked as of). A day widens to that day, a
 * month to the month, a year to the year, a recent stretch ("last week") to the stretch up
 * to `now`, each with some slack; a time of day alone ("at 5 pm") is not a date and is left
 * in the text.
 */
export function findQueryTime(query: string, now: Date): QueryWithTime {
  for (const found of chrono.parse(query, now)) {
    const start = found.start;
    const dated =
      start.isCertain('day') ||
      start.isCertain('month') ||
      start.isCertain('year') ||
      start.isCertain('weekday');
    if (!dated) continue;
    const first = start.date();
    const span =
      start.isCertain('day') || start.isCertain('weekday') ? 1 : start.isCertain('month') ? 31 : 366;
    const last = found.end
      ? found.end.date().getTime() + DAY_MS
      : RECENT_STRETCH.test(found.text) && first.getTime() < now.getTime()
        ? now.getTime()
        : first.getTime() + span * DAY_MS;
    const slack = TIME_WINDOW_SLACK_DAYS * DAY_MS;
    const text = `${query.slice(0, found.index)} ${query.slice(found.index + found.text.length)}`
      .replace(/\s+/g, ' ')
      .trim();
    return { text, window: { from: new Date(first.getTime() - slack), to: new Date(last + slack) } };
  }
  return { text: query, window: null };
}
