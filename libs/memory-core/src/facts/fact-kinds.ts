import type { FactCategory, FactLifetime } from '@engram/contracts';

// The lists are the contract's (memory_save checks against them); memory speaks of them from here too.
export { FACT_CATEGORIES, FACT_LIFETIMES, type FactCategory, type FactLifetime } from '@engram/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a fact of each lifetime type is served after it was last stated; sticky never expires. */
export const LIFETIME_DAYS: Record<FactLifetime, number | null> = {
  sticky: null,
  user_preference: 90,
  project_context: 30,
  learned_pattern: 30,
};

/** Default importance (1–10) of a fact by category. */
export const DEFAULT_IMPORTANCE: Record<FactCategory, number> = {
  correction: 9,
  preference: 8,
  decision: 7,
  fact: 6,
  relationship: 6,
  task: 5,
  event: 5,
  general: 4,
};

/** When a fact of this lifetime stops being served; null for sticky facts. */
export function expiryOf(lifetime: FactLifetime, statedAt: Date): Date | null {
  const days = LIFETIME_DAYS[lifetime];
  return days === null ? null : new Date(statedAt.getTime() + days * DAY_MS);
}

/** Expired facts stay stored; they are only no longer served. */
export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

/**
 * What a `[MEMORY:type]` tag means. The type is normally a lifetime type; a
 * category name is accepted too (with the lifetime that suits it), and anything
 * else is kept as a general note that expires like project context.
 */
export function classifyMemoryTag(type: string): { category: FactCategory; lifetime: FactLifetime } {
  const t = type.toLowerCase();
  switch (t) {
    case 'sticky':
      return { category: 'fact', lifetime: 'sticky' };
    case 'user_preference':
    case 'preference':
      return { category: 'preference', lifetime: 'user_preference' };
    case 'project_context':
      return { category: 'fact', lifetime: 'project_context' };
    case 'learned_pattern':
      return { category: 'general', lifetime: 'learned_pattern' };
    case 'decision':
    case 'task':
    case 'event':
      return { category: t, lifetime: 'project_context' };
    case 'fact':
    case 'relationship':
    case 'correction':
      return { category: t, lifetime: 'sticky' };
    default:
      return { category: 'general', lifetime: 'project_context' };
  }
}
