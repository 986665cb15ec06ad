import type { SearchMatch } from '@engram/contracts';

/** Scenes a search_memory answers when the request names no limit. */
export const DEFAULT_SEARCH_LIMIT = 20;

/** A LIKE pattern matching `keyword` as a substring, its own %, _ and \ taken literally. */
export function substringPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The keywords of a search as patterns, each once (case does not make two keywords), and how
 * many of them a scene must match: one for "or" (the default), all for "and".
 */
export function keywordSearch(
  keywords: readonly string[],
  match: SearchMatch | '',
): { patterns: string[]; atLeast: number } {
  const distinct = [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()];
  return { patterns: distinct.map(substringPattern), atLeast: match === 'and' ? distinct.length : 1 };
}
