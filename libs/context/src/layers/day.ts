/** YYYY-MM-DD of an instant, in UTC (the store's dates are UTC too). */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** "Saturday, 22 November 2026". */
export function longDay(at: Date): string {
  return at.toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
