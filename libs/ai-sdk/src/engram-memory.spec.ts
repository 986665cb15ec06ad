import { EngramClient, EngramUnavailableError } from '@engram/client';
import { freePort } from '@engram/testing';
import { engramMemory } from './engram-memory';
import { loadAiSdk, streamAnswer, streamedParts, textAnswer } from './testing/ai-sdk';

/**
 * Memory that cannot be reached (nothing listens where the client looks): the answer must not
 * depend on it. What Engram does with a turn is the int-spec's (Engram running there).
 */
describe('engramMemory while Engram is unreachable', () => {
  let ai: Awaited<ReturnType<typeof loadAiSdk>>;
  let engram: EngramClient;

  beforeAll(async () => {
    ai = await loadAiSdk();
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    engram = EngramClient.http({ baseUrl, apiKey: 'egm_test', agent: 'concierge', retry: { retries: 0 } });
  });

  afterAll(() => engram.close());

  const prompt = 'Hi, I am Ada.';
  const callerPrompt = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];

  it("answers from the caller's prompt alone, and gives both failures to onError", async () => {
    const errors: unknown[] = [];
    const memory = engramMemory(engram, { sessionKey: 'chat-1', onError: (error) => errors.push(error) });
    const model = new ai.MockLanguageModelV4({ doGenerate: textAnswer('Hello Ada!') });

    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: memory }),
      prompt,
    });
    await memory.flush();

    expect(result.text).toBe('Hello Ada!');
    expect(model.doGenerateCalls[0]!.prompt).toEqual(callerPrompt);
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => error instanceof EngramUnavailableError)).toBe(true);
  });

  it('streams the whole answer, however publishing it goes', async () => {
    const errors: unknown[] = [];
    const memory = engramMemory(engram, { sessionKey: 'chat-1', onError: (error) => errors.push(error) });
    const model = new ai.MockLanguageModelV4({
      doStream: streamAnswer(streamedParts(['Hello ', 'Ada', '!'])),
    });

    const result = ai.streamText({ model: ai.wrapLanguageModel({ model, middleware: memory }), prompt });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    await memory.flush();

    expect(deltas).toEqual(['Hello ', 'Ada', '!']);
    expect(model.doStreamCalls[0]!.prompt).toEqual(callerPrompt);
    expect(errors.map((error) => (error as Error).name)).toEqual([
      'EngramUnavailableError',
      'EngramUnavailableError',
    ]);
  });

  it('needs an agent to publish the turns as', () => {
    const anonymous = EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'egm_test' });
    expect(() => engramMemory(anonymous, { sessionKey: 'chat-1' })).toThrow(/engramMemory needs an agent/);
  });
});
