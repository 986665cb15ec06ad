import safeRegex from 'safe-regex2';

export const MAX_PATTERN_LENGTH = 500;

export type PatternCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Whether a regex-mode pattern may run. Postgres' engine does not backtrack the way
 * JavaScript's does, but back-references and nested repetition can still make one
 * pattern cost seconds on every row: those are refused up front, with the reason
 * (the statement also runs under a timeout). Syntax errors are Postgres' to report.
 */
export function checkPattern(pattern: string): PatternCheck {
  if (pattern.length === 0) return { ok: false, reason: 'the pattern is empty' };
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { ok: false, reason: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
  if (/\\[1-9]/.test(pattern)) return { ok: false, reason: 'back-references are not allowed' };
  let compiles = true;
  try {
    new RegExp(pattern, 'u');
  } catch {
    compiles = false;
  }
  // Only what JavaScript can read can be judged for nested repetition; the rest goes to Postgres.
  if (compiles && !safeRegex(pattern)) {
    return { ok: false, reason: 'nested repetition (like (a+)+) can take exponential time' };
  }
  return { ok: true };
}
