import type { OutputPart, StreamPart } from './ai-sdk-types';
import { recordAnswer } from './answer-stream';
import { streamedParts } from './testing/ai-sdk';

/** Reads a stream of parts through recordAnswer; what came out, and the answer it gave (if any). */
async function throughRecorder(parts: readonly StreamPart[]) {
  let answer: OutputPart[] | undefined;
  const source = new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const out: StreamPart[] = [];
  for await (const part of source.pipeThrough(recordAnswer((a) => (answer = a)))) out.push(part);
  return { out, answer };
}

describe('a streamed answer on its way to memory', () => {
  it('passes every part on unchanged, and gives the whole answer once the stream finished', async () => {
    const toolCall: StreamPart = {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'memory_search',
      input: '{"query":"units"}',
    };
    const parts = streamedParts(['Let me ', 'check.']);
    const { out, answer } = await throughRecorder([...parts.slice(0, -1), toolCall, parts.at(-1)!]);
    expect(out).toEqual([...parts.slice(0, -1), toolCall, parts.at(-1)!]);
    expect(answer).toEqual([{ type: 'text', text: 'Let me check.' }, toolCall]);
  });

  it('gives no answer when the stream failed or never finished', async () => {
    const parts = streamedParts(['Half an ans']);
    expect(
      (
        await throughRecorder([
          ...parts.slice(0, -1),
          { type: 'error', error: new Error('reset') },
          parts.at(-1)!,
        ])
      ).answer,
    ).toBeUndefined();
    expect((await throughRecorder(parts.slice(0, -1))).answer).toBeUndefined();
  });
});
