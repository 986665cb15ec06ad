import type { OutputPart, StreamPart } from './ai-sdk-types';

/**
 * Passes every part of a streamed answer on the moment it comes (nothing is held back), and
 * once the stream has finished gives the whole answer to `answered`, as doGenerate would have
 * returned it: an answer that failed or was cancelled is not given.
 */
export function recordAnswer(
  answered: (answer: OutputPart[]) => void,
): TransformStream<StreamPart, StreamPart> {
  const answer: OutputPart[] = [];
  const texts = new Map<string, { type: 'text'; text: string }>();
  let finished = false;
  let failed = false;
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      controller.enqueue(part);
      if (part.type === 'text-start' || (part.type === 'text-delta' && !texts.has(part.id))) {
        const text = { type: 'text' as const, text: '' };
        texts.set(part.id, text);
        answer.push(text);
      }
      if (part.type === 'text-delta') texts.get(part.id)!.text += part.delta;
      else if (part.type === 'tool-call' || part.type === 'tool-result') answer.push(part);
      else if (part.type === 'error') failed = true;
      else if (part.type === 'finish') finished = true;
    },
    flush() {
      if (finished && !failed) answered(answer);
    },
  });
}
