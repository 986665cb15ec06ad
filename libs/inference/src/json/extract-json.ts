export type JsonExtraction =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

const THINKING = /<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi;
/** A thought whose opening tag the chat template put in the prompt: everything up to its close. */
const OPENED_IN_PROMPT = /^[\s\S]*<\/think(?:ing)?>/i;
/** A thought the model was cut off in (its token budget ran out). */
const UNFINISHED = /<think(?:ing)?>[\s\S]*$/i;

/** A model's answer without what it thought aloud (`<think>…</think>`, also opened by the template or left unfinished), trimmed. */
export function withoutThinking(answer: string): string {
  return answer.replace(THINKING, '').replace(OPENED_IN_PROMPT, '').replace(UNFINISHED, '').trim();
}
const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/;

/**
 * The JSON value in a model's answer. Models wrap it in ```json fences, put a sentence before
 * it or think aloud in <think> tags first; this takes, in order, the fenced block, the whole
 * answer, and the span from the first { or [ to the last } or ], and returns the first that
 * parses. The problem, when nothing parses, names what was wrong for a repair prompt.
 */
export function extractJson(answer: string): JsonExtraction {
  const text = withoutThinking(answer);
  if (!text) return { ok: false, problem: 'the answer is empty' };
  const candidates: string[] = [];
  const fenced = FENCE.exec(text)?.[1]?.trim();
  if (fenced) candidates.push(fenced);
  candidates.push(text);
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  let firstProblem: string | undefined;
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch (error) {
      firstProblem ??= error instanceof Error ? error.message : String(error);
    }
  }
  return { ok: false, problem: `the answer is not valid JSON (${firstProblem ?? 'unparseable'})` };
}
