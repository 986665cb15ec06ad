/**
 * How a scene fades and comes back. A node's effective importance is
 * `importance · e^(−session_count/30) · (1 + reactivation_count)`: every patrol (a session
 * of the being) it is active, it fades; every time it is recalled, it counts for more. At
 * or below 0.05 an active node is dying; only consolidation (a model's judgement) makes one
 * dead. Dying and dead nodes no longer fade (their session count stops), so a recall that lifts
 * one above 0.05 again saves or revives it. Pinned nodes never die.
 */

/** Sessions over which importance falls by a factor e. */
export const DECAY_SESSIONS = 30;
/** At or below this effective importance a node is dying; above it a dying node recovers and a dead one revives. */
export const DEATH_THRESHOLD = 0.05;
/** Importance of a scene whose note gave none. */
export const DEFAULT_IMPORTANCE = 0.5;
/** What a survivor of a merge gains (capped at 1). */
export const MERGE_BONUS = 0.05;

export interface Fading {
  readonly importance: number;
  readonly sessionCount: number;
  readonly reactivationCount: number;
}

/** importance · e^(−session_count/30) · (1 + reactivation_count). */
export function effectiveImportance(node: Fading): number {
  return node.importance * Math.exp(-node.sessionCount / DECAY_SESSIONS) * (1 + node.reactivationCount);
}

/** e^(−session_count/30) · (1 + reactivation_count) as SQL over memory_nodes' columns. */
export const FADE_FACTOR_SQL = `(exp(-session_count / ${DECAY_SESSIONS}.0) * (1 + reactivation_count))`;

/** effectiveImportance as SQL over memory_nodes' columns (one source for the patrol's UPDATEs). */
export const EFFECTIVE_IMPORTANCE_SQL = `(importance * ${FADE_FACTOR_SQL})`;

/** Fading below the threshold (pinned nodes never are). */
export function isFaded(node: Fading & { readonly pinned: boolean }): boolean {
  return !node.pinned && effectiveImportance(node) <= DEATH_THRESHOLD;
}

/** A scene note's importance in 0..1: clamped, 0.5 when absent or not a number. */
export function clampImportance(importance: number | null | undefined): number {
  if (importance === null || importance === undefined || !Number.isFinite(importance))
    return DEFAULT_IMPORTANCE;
  return Math.min(1, Math.max(0, importance));
}

/** A merge survivor's importance: +0.05, at most 1. */
export function survivorImportance(importance: number): number {
  return Math.min(1, importance + MERGE_BONUS);
}
