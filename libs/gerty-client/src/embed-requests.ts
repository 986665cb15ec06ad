/** NATS carries at most 1 MB: requests and answers are cut to stay well below. */
const MAX_REQUEST_CHARS = 400_000;
/** What a text contributes to its vector is in its first ~8k tokens; no model reads more. */
export const MAX_EMBED_CHARS = 32_000;
const MAX_ANSWER_BYTES = 600_000;

/**
 * Texts in the requests one batch of them is sent to Gerty in: each request's texts and its
 * answer (vectors of `dimensions`, ~12 bytes a number as JSON) fit a NATS message; a text is
 * clipped to MAX_EMBED_CHARS. The order of the texts is kept.
 */
export function* embedRequests(texts: readonly string[], dimensions: number): Generator<string[]> {
  const maxTexts = Math.max(1, Math.min(512, Math.floor(MAX_ANSWER_BYTES / (dimensions * 12))));
  let chunk: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (
      chunk.length > 0 &&
      (chunk.length >= maxTexts || chars + Math.min(text.length, MAX_EMBED_CHARS) > MAX_REQUEST_CHARS)
    ) {
      yield chunk;
      chunk = [];
      chars = 0;
    }
    const clipped = text.length > MAX_EMBED_CHARS ? text.slice(0, MAX_EMBED_CHARS) : text;
    chunk.push(clipped);
    chars += clipped.length;
  }
  if (chunk.length > 0) yield chunk;
}
