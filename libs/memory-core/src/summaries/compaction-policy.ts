/** How a conversation's summary tree grows (configured per deployment). */
export interface CompactionPolicy {
  /** A leaf summarises at most this many messages; this many unsummarised messages make one. */
  readonly leafMessages: number;
  /** A leaf's messages hold at most this many tokens; this many unsummarised tokens make one. */
  readonly leafTokens: number;
  /** Leaves per branch, branches per root. */
  readonly fanOut: number;
  /** The summarising model's context window, in tokens. */
  readonly windowTokens: number;
}

/** What a summarise prompt costs besides its lines: instructions, preamble, and room for the answer. */
export const PROMPT_RESERVE_TOKENS = 1024;
/** What each rendered line adds to its text: ordinal, ISO time, role and author. */
export const LINE_OVERHEAD_TOKENS = 12;

export interface SummaryBudget {
  /** Tokens the lines of one summarise call may hold. */
  readonly inputTokens: number;
  /** Longest summary asked for: `fanOut` of them must fit one parent's input. */
  readonly maxChars: number;
}

/**
 * What one summarise call may be given and may answer. Summaries are bounded so that
 * a parent's children always fit the window together: no source is ever cut.
 */
export function summaryBudget(policy: CompactionPolicy): SummaryBudget {
  const inputTokens = Math.max(LINE_OVERHEAD_TOKENS + 1, policy.windowTokens - PROMPT_RESERVE_TOKENS);
  const perChildTokens = Math.floor(inputTokens / policy.fanOut) - LINE_OVERHEAD_TOKENS;
  return { inputTokens, maxChars: Math.max(200, Math.min(4000, perChildTokens * 4)) };
}
