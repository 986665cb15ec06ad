/**
 * How transcript lines and conversations are labelled wherever a model reads or
 * writes them: the built-in extractive summariser and the LLM prompts share these
 * renderings, so a summary line can always be traced back to its message.
 *
 *   [#01 2026-04-18T12:00Z opus/user] text …
 */

/** A transcript line as the summariser and the prompts see it. */
export interface AttributedLine {
  /** 1-based position of the message in the summarised span. */
  ordinal: number;
  at: Date;
  /** Who produced the turn, e.g. the agent ("opus"); may be empty. */
  author: string;
  /** user, assistant, system or tool. */
  role: string;
}

/** What a summary's one-line header says about the conversation. */
export interface ConversationPreamble {
  conversationId: string;
  agent?: string | null;
  channel?: string | null;
  title?: string | null;
  from: Date;
  to: Date;
  messageCount: number;
}

/** `2026-04-18T12:00Z`: ISO 8601 in UTC, to the minute. Throws RangeError on an invalid date. */
export function isoMinute(at: Date): string {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new RangeError(`invalid date: ${String(at)}`);
  }
  return `${at.toISOString().slice(0, 16)}Z`;
}

/** `2026-04-18`: the UTC calendar day. Throws RangeError on an invalid date. */
export function isoDay(at: Date): string {
  return isoMinute(at).slice(0, 10);
}

/** An attribution token may not contain whitespace or brackets (it would break the prefix). */
function token(value: string): string {
  return value.replace(/[\s[\]]+/g, '_');
}

/**
 * `[#01 2026-04-18T12:00Z opus/user]`. The ordinal is zero-padded to `ordinalWidth`
 * digits (at least 2); with no author the role stands alone (`[#01 … user]`).
 */
export function attributionPrefix(line: AttributedLine, ordinalWidth = 2): string {
  const ordinal = String(Math.max(0, Math.trunc(line.ordinal))).padStart(Math.max(2, ordinalWidth), '0');
  const role = token(line.role || 'unknown');
  const author = token(line.author ?? '');
  const who = author ? `${author}/${role}` : role;
  return `[#${ordinal} ${isoMinute(line.at)} ${who}]`;
}

/** The ordinal width that keeps every prefix of a span the same length. */
export function ordinalWidthFor(lines: readonly { ordinal: number }[]): number {
  let max = 0;
  for (const line of lines) max = Math.max(max, line.ordinal);
  return Math.max(2, String(Math.trunc(max)).length);
}

/**
 * One transcript line for a prompt: the prefix and the text with its line breaks
 * folded to spaces, so that every rendered line is one message.
 */
export function renderTranscriptLine(line: AttributedLine & { text: string }, ordinalWidth = 2): string {
  const text = line.text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim();
  return `${attributionPrefix(line, ordinalWidth)} ${text}`;
}

function quoted(value: string): string {
  return `"${value.replace(/\s+/g, ' ').trim().replace(/"/g, "'")}"`;
}

/**
 * The one-line header of a summary or prompt:
 * `Conversation c-42 · agent opus · channel telegram · "Deploy review" · 2026-04-18T12:00Z–2026-04-18T13:05Z · 42 messages`.
 * Absent optional fields are left out.
 */
export function renderPreamble(preamble: ConversationPreamble): string {
  const parts = [`Conversation ${token(preamble.conversationId)}`];
  if (preamble.agent) parts.push(`agent ${token(preamble.agent)}`);
  if (preamble.channel) parts.push(`channel ${token(preamble.channel)}`);
  if (preamble.title && preamble.title.trim()) parts.push(quoted(preamble.title));
  parts.push(`${isoMinute(preamble.from)}–${isoMinute(preamble.to)}`);
  const count = Math.max(0, Math.trunc(preamble.messageCount));
  parts.push(`${count} message${count === 1 ? '' : 's'}`);
  return parts.join(' · ');
}
