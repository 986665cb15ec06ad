/** How a conversation's summary tree grows (configured per deployment). */
export interface SummaryTreePolicy {
  /** A leaf summarises at most this many messages; this many unsummarised messages make one. */
  readonly leafMessages: number;
  /** A leaf's messages hold at most this many tokens; this many unsummarised tokens make one. */
  readonly leafTokens: number;
  /** Leaves per branch, branches per root. */
  readonly fanOut: number;
  /** The summarising model's context window, in tokens. */
  readonly windowTokens: number;
  /** What writing a leaf, a branch and a root may take, thoughts included (RivetOS v5: 7k / 14k / 20k). */
  readonly summaryTokens: readonly [leaf: number, branch: number, root: number];
}

/** What a summarise prompt costs besides its lines: instructions, preamble, and room for the answer. */
export const PROMPT_RESERVE_TOKENS = 1024;
/** What each rendered line adds to its text: ordinal, ISO time, role and author. */
export const LINE_OVERHEAD_TOKENS = 12;
/** The depth of a root, the top of the tree (leaf 0, branch 1). */
export const ROOT_DEPTH = 2;
/** The longest summary asked for when the window has no room for the depth's budget. */
const SMALL_WINDOW_MAX_CHARS = 4000;

export interface SummaryBudget {
  /** Tokens the lines of one summarise call may hold. */
  readonly inputTokens: number;
  /** Longest summary asked for: `fanOut` of them must fit one parent's input. */
  readonly maxChars: number;
  /** The call's max_tokens (the depth's budget), when the window has room for it; else the server's default. */
  readonly maxTokens?: number;
}

/** The depth's budget when it takes at most half of what the window leaves the call, else 0 (none). */
function budgetTokens(policy: SummaryTreePolicy, depth: number): number {
  const budget = policy.summaryTokens[Math.min(depth, ROOT_DEPTH)]!;
  return budget <= (policy.windowTokens - PROMPT_RESERVE_TOKENS) / 2 ? budget : 0;
}

function inputTokensAt(policy: SummaryTreePolicy, depth: number): number {
  return Math.max(
    LINE_OVERHEAD_TOKENS + 1,
    policy.windowTokens - PROMPT_RESERVE_TOKENS - budgetTokens(policy, depth),
  );
}

/**
 * What one summarise call at `depth` may be given and may answer. Summaries are bounded so
 * that a parent's children always fit its window together: no source is ever cut. A window
 * with room for the depth's budget (v5) gets it as max_tokens, half of it for the summary
 * and half for thinking; a smaller one (the built-in model's 8k) asks for at most 4,000
 * characters and leaves max_tokens to the server.
 */
export function summaryBudget(policy: SummaryTreePolicy, depth = 0): SummaryBudget {
  const inputTokens = inputTokensAt(policy, depth);
  const parentInput = inputTokensAt(policy, Math.min(depth + 1, ROOT_DEPTH));
  const perChildChars = (Math.floor(parentInput / policy.fanOut) - LINE_OVERHEAD_TOKENS) * 4;
  const budget = budgetTokens(policy, depth);
  const longest = budget ? Math.floor(budget / 2) * 4 : SMALL_WINDOW_MAX_CHARS;
  return {
    inputTokens,
    maxChars: Math.max(200, Math.min(longest, perChildChars)),
    ...(budget && { maxTokens: budget }),
  };
}
