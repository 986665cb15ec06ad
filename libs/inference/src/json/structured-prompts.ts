import type { ChatMessage, JsonSchema } from '../messages/messages';

/** A previous answer longer than this is cut before it goes back to the model. */
const MAX_ECHOED_ANSWER_CHARS = 8_000;

/**
 * The schema spelled out in the system prompt, for servers that cannot constrain output to a
 * JSON Schema themselves (JSON mode only, or nothing): appended to the first system message,
 * or a new system message in front.
 */
export function withSchemaInstructions(messages: readonly ChatMessage[], schema: JsonSchema): ChatMessage[] {
  const instructions =
    'Answer with a single JSON value that is valid against this JSON Schema. ' +
    'Output only the JSON: no explanation, no code fences.\n\nJSON Schema:\n' +
    JSON.stringify(schema);
  const first = messages[0];
  if (first?.role === 'system') {
    return [{ role: 'system', content: `${first.content}\n\n${instructions}` }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: instructions }, ...messages];
}

/**
 * The conversation again, followed by the invalid answer and what was wrong with it, asking
 * for corrected JSON only: the one repair attempt after invalid structured output.
 */
export function repairConversation(
  messages: readonly ChatMessage[],
  invalidAnswer: string,
  problems: readonly string[],
): ChatMessage[] {
  const echoed =
    invalidAnswer.length > MAX_ECHOED_ANSWER_CHARS
      ? `${invalidAnswer.slice(0, MAX_ECHOED_ANSWER_CHARS)}\n[… cut]`
      : invalidAnswer;
  return [
    ...messages,
    { role: 'assistant', content: echoed || '(empty answer)' },
    {
      role: 'user',
      content:
        'Your previous answer is not valid:\n' +
        problems.map((problem) => `- ${problem}`).join('\n') +
        '\n\nReply again with only the corrected JSON, valid against the schema: no explanation, no code fences.',
    },
  ];
}

/** A schema name as OpenAI accepts it (`^[a-zA-Z0-9_-]{1,64}$`), from a preferred name or the schema's title. */
export function schemaNameFor(schema: JsonSchema, preferred?: string): string {
  const raw = preferred ?? (typeof schema.title === 'string' ? schema.title : '');
  const name = raw
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return name || 'output';
}
