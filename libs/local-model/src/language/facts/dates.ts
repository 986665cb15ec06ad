import * as chrono from 'chrono-node';

/**
 * Relative dates made absolute against the date of the message that states them:
 * "tomorrow" in a message of 2026-02-22 → "on 2026-02-23". chrono-node finds and
 * resolves the expressions; this module decides which to trust and how to write
 * them (ISO dates, with the precision the words carry).
 */

export type DateDirection = 'past' | 'future' | 'any';
export type DatePrecision = 'day' | 'week' | 'weekend' | 'month' | 'year' | 'season' | 'approximate';

export interface ResolvedDate {
  /** Offsets of the replaced words in the input. */
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** Start of the period meant, at 00:00 UTC of its first day. */
  date: Date;
  precision: DatePrecision;
}

export interface DateResolution {
  text: string;
  dates: ResolvedDate[];
}

export interface ResolveDatesOptions {
  /** Which way ambiguous expressions ("on Friday", "in June") point. Default 'any'. */
  direction?: DateDirection;
  /** The speaker's UTC offset in minutes; decides which day "tomorrow" is. Default 0 (UTC). */
  timezoneOffsetMinutes?: number;
  /** Leave month-day dates without a year alone (birthdays and anniversaries recur). */
  keepYearless?: boolean;
  /** A clock time alone ("at 5pm") means that day; false leaves it as written (habits). Default true. */
  allowTimeOnly?: boolean;
}

const DAY_MS = 86_400_000;
const PREPOSITION_BEFORE = /\b(on|in|at|during)\s+$/i;
const BARE_BEFORE = /\b(since|until|till|by|before|after|from|through|starting|as of|between|and)\s+$/i;
const RECURRING_BEFORE = /\b(every|each|for|over|within)\s+$/i;
const WEEKDAY_ABBREVIATION = /^(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)\.?$/i;
const MONTH_NAME =
  /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)\.?$/i;
const MONTH_CONTEXT =
  /\b(in|since|until|till|by|before|after|from|through|last|next|this|early|late|mid|of|during|coming)\s+$/i;
const EXPLICIT_TIME = /\d\s*(am|pm|a\.m\.|p\.m\.)|\d:\d\d|\bnoon\b|\bmidnight\b|o'clock/i;

/** `2026-02-23` for a UTC midnight date. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The calendar day of an instant as seen at a UTC offset, as UTC midnight. */
export function localDay(at: Date, offsetMinutes = 0): Date {
  const shifted = new Date(at.getTime() + offsetMinutes * 60_000);
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()));
}

function utc(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

function mondayOf(date: Date): Date {
  const weekday = (date.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(date.getTime() - weekday * DAY_MS);
}

/** The Saturday of the weekend a day belongs to (a Sunday belongs to the day before). */
function saturdayOf(date: Date): Date {
  const weekday = date.getUTCDay();
  const shift = weekday === 0 ? -1 : 6 - weekday;
  return new Date(date.getTime() + shift * DAY_MS);
}

interface Phrase {
  bare: string;
  withPreposition: string;
}

function phrase(precision: DatePrecision, date: Date, partOfDay: string | null, time: string | null): Phrase {
  const day = isoDate(date);
  switch (precision) {
    case 'week':
      return { bare: `the week of ${day}`, withPreposition: `in the week of ${day}` };
    case 'weekend':
      return { bare: `the weekend of ${day}`, withPreposition: `on the weekend of ${day}` };
    case 'month':
      return { bare: day.slice(0, 7), withPreposition: `in ${day.slice(0, 7)}` };
    case 'year':
      return { bare: day.slice(0, 4), withPreposition: `in ${day.slice(0, 4)}` };
    default: {
      const at = time ? ` at ${time}` : '';
      if (partOfDay)
        return {
          bare: `the ${partOfDay} of ${day}${at}`,
          withPreposition: `on the ${partOfDay} of ${day}${at}`,
        };
      return { bare: `${day}${at}`, withPreposition: `on ${day}${at}` };
    }
  }
}

const SEASONS: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };

/** Phrases chrono does not resolve: seasons, "recently", "the other day", "soon". */
function customPhrases(text: string, today: Date, direction: DateDirection): ResolvedDate[] {
  const found: ResolvedDate[] = [];
  const season = /\b(last|this|next|past|coming)\s+(spring|summer|autumn|fall|winter)\b/gi;
  for (const match of text.matchAll(season)) {
    const which = match[1].toLowerCase();
    const name = match[2].toLowerCase();
    const startMonth = SEASONS[name];
    const year = today.getUTCFullYear();
    const starts = [-2, -1, 0, 1].map((delta) => utc(year + delta, startMonth, 1));
    const endOf = (first: Date): Date =>
      new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 3, 1));
    const current = starts.find((first) => first <= today && today < endOf(first));
    const lastEnded = starts.filter((first) => endOf(first) <= today).pop();
    const nextStarting = starts.find((first) => first > today);
    let chosen: Date | undefined;
    if (which === 'last' || which === 'past') chosen = lastEnded;
    else if (which === 'next' || which === 'coming') chosen = nextStarting;
    else chosen = current ?? (direction === 'past' ? lastEnded : nextStarting);
    if (!chosen) continue;
    const startYear = chosen.getUTCFullYear();
    const label = name === 'fall' ? 'autumn' : name;
    const years =
      startMonth === 12 ? `${startYear}/${String((startYear + 1) % 100).padStart(2, '0')}` : `${startYear}`;
    const start = match.index ?? 0;
    found.push({
      start,
      end: start + match[0].length,
      original: match[0],
      replacement: `in the ${label} of ${years}`,
      date: utc(startYear, startMonth, 1),
      precision: 'season',
    });
  }
  const vague: [RegExp, (day: string) => string][] = [
    [/\b(?:very |quite )?recently\b/gi, (day) => `shortly before ${day}`],
    [/\bthe other day\b/gi, (day) => `a few days before ${day}`],
    [/\b(?:a while|some time) ago\b/gi, (day) => `some time before ${day}`],
    [/\b(?:very |quite )?soon\b/gi, (day) => `soon after ${day}`],
  ];
  for (const [pattern, render] of vague) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      found.push({
        start,
        end: start + match[0].length,
        original: match[0],
        replacement: render(isoDate(today)),
        date: today,
        precision: 'approximate',
      });
    }
  }
  return found;
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * Finds relative and partial dates in `text`, resolves them against `at` and
 * rewrites them as absolute ISO dates. What is not a date reference is left
 * alone: durations ("for 5 years"), recurring days ("every Sunday"), "now",
 * abbreviations that are also words ("Sun", "may"), bare clock times without a
 * date context.
 */
export function resolveRelativeDates(
  text: string,
  at: Date,
  options: ResolveDatesOptions = {},
): DateResolution {
  const direction = options.direction ?? 'any';
  const offset = options.timezoneOffsetMinutes ?? 0;
  const today = localDay(at, offset);
  const resolved: ResolvedDate[] = customPhrases(text, today, direction);

  const results = chrono.casual.parse(
    text,
    { instant: at, timezone: offset },
    { forwardDate: direction === 'future' },
  );
  for (const result of results) {
    let start = result.index;
    const raw = result.text.replace(/[\s,;:]+$/, '');
    const end = start + raw.length;
    const lower = raw.toLowerCase();
    const tags = result.tags();
    const before = text.slice(0, start);
    if (resolved.some((other) => overlaps(other, { start, end }))) continue;
    if (/^(for|over|within|every|each)\b/i.test(raw) || RECURRING_BEFORE.test(before)) continue;
    if (tags.has('casualReference/now') || lower === 'now' || lower === 'right now') continue;
    const words = raw.trim().split(/\s+/);
    if (words.length === 1) {
      if (WEEKDAY_ABBREVIATION.test(raw)) continue;
      if (/^[a-z]+days$/i.test(raw)) continue; // "on Sundays": recurring
      if (/^(morning|afternoon|evening|night|noon|midnight|weekend)s?$/i.test(raw)) continue; // "a morning person"
      if (MONTH_NAME.test(raw) && (!MONTH_CONTEXT.test(before) || raw === raw.toLowerCase())) continue;
    }
    const startComponents = result.start;
    const relative =
      tags.has('result/relativeDate') || [...tags].some((tag) => tag.startsWith('casualReference/'));
    const hasDate =
      relative ||
      startComponents.isCertain('day') ||
      startComponents.isCertain('weekday') ||
      startComponents.isCertain('month') ||
      startComponents.isCertain('year');
    const hour = startComponents.get('hour');
    const minute = startComponents.get('minute') ?? 0;
    const explicitTime = EXPLICIT_TIME.test(raw) && startComponents.isCertain('hour');
    const time =
      explicitTime && hour !== null
        ? `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
        : null;

    if (!hasDate) {
      if (!explicitTime || options.allowTimeOnly === false) continue; // "at 5" alone is too vague
      // A clock time alone means that day.
      const original = raw;
      const replacement = `on ${isoDate(today)} ${raw.trim()}`;
      resolved.push({ start, end, original, replacement, date: today, precision: 'day' });
      continue;
    }

    let year = startComponents.get('year') ?? today.getUTCFullYear();
    const month = startComponents.get('month') ?? 1;
    const day = startComponents.get('day') ?? 1;
    if (!startComponents.isCertain('year') && !relative) {
      if (options.keepYearless && (startComponents.isCertain('month') || startComponents.isCertain('day')))
        continue;
      const candidate = utc(year, month, day);
      if (direction === 'past' && candidate.getTime() > today.getTime()) year -= 1;
      if (direction === 'future' && candidate.getTime() < today.getTime()) year += 1;
    }
    let date = utc(year, month, day);

    let precision: DatePrecision;
    if (/\bweekends?\b/i.test(raw)) precision = 'weekend';
    else if (/\bweeks?\b/i.test(raw) && !startComponents.isCertain('weekday')) precision = 'week';
    else if (/\bmonths?\b/i.test(raw)) precision = 'month';
    else if (/\byears?\b/i.test(raw)) precision = 'year';
    else if (startComponents.isCertain('day') || startComponents.isCertain('weekday') || relative)
      precision = 'day';
    else if (startComponents.isCertain('month')) precision = 'month';
    else precision = 'year';
    if (precision === 'week') date = mondayOf(date);
    if (precision === 'weekend') date = saturdayOf(date);
    if (precision === 'month') date = utc(year, month, 1);
    if (precision === 'year') date = utc(year, 1, 1);

    const partMatch = /\b(morning|afternoon|evening|tonight|night)\b/i.exec(raw);
    const partOfDay = partMatch
      ? partMatch[1].toLowerCase() === 'tonight'
        ? 'evening'
        : partMatch[1].toLowerCase()
      : null;
    const rendered = phrase(
      precision,
      date,
      precision === 'day' ? partOfDay : null,
      precision === 'day' ? time : null,
    );

    let replacement: string;
    const ownPreposition = /^(on|in|at|during)\s+/i.exec(raw);
    const endComponents = result.end;
    if (endComponents && precision === 'day') {
      const endDate = utc(
        endComponents.get('year') ?? year,
        endComponents.get('month') ?? month,
        endComponents.get('day') ?? day,
      );
      const fromBefore = /\bfrom\s+$/i.exec(before);
      if (fromBefore) start -= fromBefore[0].length;
      replacement = `from ${isoDate(date)} to ${isoDate(endDate)}`;
    } else if (BARE_BEFORE.test(before) && !ownPreposition) {
      replacement = rendered.bare;
    } else {
      const absorbed = PREPOSITION_BEFORE.exec(before);
      if (absorbed && !ownPreposition) start -= absorbed[0].length;
      replacement = rendered.withPreposition;
    }
    // "earlier today" → "earlier on …" reads fine; "this morning" → "on the morning of …".
    resolved.push({ start, end, original: text.slice(start, end), replacement, date, precision });
  }

  resolved.sort((a, b) => a.start - b.start);
  const kept: ResolvedDate[] = [];
  for (const item of resolved) if (!kept.some((other) => overlaps(other, item))) kept.push(item);
  let out = text;
  for (const item of [...kept].reverse())
    out = out.slice(0, item.start) + item.replacement + out.slice(item.end);
  return { text: out, dates: kept };
}
