/** How the dashboard words memory: pure, so the unit spec beside it pins them down. */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What is left of a fact's lifetime at `now`: "never expires" for a fact without an end. */
export function lifetimeLeft(expiresAt: string | undefined, now: Date): string {
  if (!expiresAt) return 'never expires';
  const left = Date.parse(expiresAt) - now.getTime();
  if (left <= 0) return 'expired';
  if (left >= DAY_MS) return `${Math.floor(left / DAY_MS)} d left`;
  return `${Math.max(1, Math.floor(left / HOUR_MS))} h left`;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * A timestamp in the reader's time zone as YYYY-MM-DD HH:MM:SS; an em dash for none. Not through
 * Intl: its first use in a page loads the locale's data, 40–150 ms of an agent page's first paint.
 */
export function when(at: string | undefined): string {
  if (!at) return '—';
  const d = new Date(at);
  return (
    `${d.getFullYear()}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())} ` +
    `${twoDigits(d.getHours())}:${twoDigits(d.getMinutes())}:${twoDigits(d.getSeconds())}`
  );
}

/** Items grouped by a key, groups in order of their keys (code point order: no Intl collator to load). */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A score with the signals behind it, e.g. "full text 0.42 · semantic 0.31". Zero signals are left out. */
export function whyItScored(signals: Record<string, number> | undefined): string {
  if (!signals) return '';
  const names: Record<string, string> = {
    fulltext: 'full text',
    semantic: 'semantic',
    temporal: 'recency',
    importance: 'importance',
    timeMatch: 'time match',
  };
  return Object.entries(names)
    .filter(([field]) => (signals[field] ?? 0) !== 0)
    .map(([field, name]) => `${name} ${(signals[field] ?? 0).toFixed(2)}`)
    .join(' · ');
}
