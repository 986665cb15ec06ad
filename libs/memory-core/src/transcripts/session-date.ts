import * as chrono from 'chrono-node';

/**
 * A session's date as LoCoMo writes it ("1:56 pm on 8 May, 2023"), read as UTC so the
 * run does not depend on the machine's time zone. Null unless the day, month, year and
 * hour are all stated (a partial date would silently borrow today's).
 */
export function parseSessionDate(text: string): Date | null {
  const [first] = chrono.strict.parse(text, { instant: new Date(0), timezone: 'UTC' });
  if (!first) return null;
  const start = first.start;
  if (!(['day', 'month', 'year', 'hour'] as const).every((c) => start.isCertain(c))) return null;
  return start.date();
}
