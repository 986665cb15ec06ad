import {
  chatBody,
  isResponseFormatRejection,
  parseChatAnswer,
  parseEmbeddings,
  serverErrorMessage,
} from './openai-protocol';

describe('OpenAI wire format', () => {
  it('builds chat bodies for each structured mode', () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const schema = { type: 'object' };
    expect(chatBody({ model: 'm' }, messages)).toEqual({ model: 'm', messages, stream: false });
    expect(
      chatBody({ model: 'm', maxTokens: 5 }, messages, { mode: 'json_schema', name: 'x', schema })
        .response_format,
    ).toEqual({
      type: 'json_schema',
      json_schema: { name: 'x', schema, strict: true },
    });
    expect(
      chatBody({ model: 'm' }, messages, { mode: 'json_object', name: 'x', schema }).response_format,
    ).toEqual({ type: 'json_object' });
    expect(
      chatBody({ model: 'm' }, messages, { mode: 'prompt', name: 'x', schema }).response_format,
    ).toBeUndefined();
  });

  it('asks a reasoning model to think the way its server takes it', () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(chatBody({ model: 'm', thinking: { effort: 'high' } }, messages)).toMatchObject({
      reasoning_effort: 'high',
    });
    // vLLM's and DeepSeek's `reasoning_content`, Ollama's and OpenRouter's `reasoning`: never the answer.
    const answer = parseChatAnswer({
      choices: [{ message: { content: 'The summary.', reasoning_content: 'First…', reasoning: 'First…' } }],
    });
    expect(answer.ok && answer.text).toBe('The summary.');
    const vllm = chatBody({ model: 'm', thinking: { enabled: false } }, messages);
    expect(vllm.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(vllm.reasoning_effort).toBeUndefined();
  });

  it('reads chat answers, including null content and refusals', () => {
    expect(
      parseChatAnswer({
        model: 'gpt',
        choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      }),
    ).toEqual({
      ok: true,
      text: 'ok',
      model: 'gpt',
      finishReason: 'stop',
      promptTokens: 3,
      completionTokens: 1,
    });
    expect(
      parseChatAnswer({ choices: [{ message: { content: null, refusal: 'I cannot help with that.' } }] }),
    ).toEqual({
      ok: true,
      text: '',
      refusal: 'I cannot help with that.',
    });
    expect(parseChatAnswer({ choices: [] })).toEqual({
      ok: false,
      problem: 'the answer has no choices[0].message',
    });
    expect(parseChatAnswer(null).ok).toBe(false);
  });

  it('reads float and base64 embeddings and checks their shape', () => {
    const base64 = Buffer.from(new Float32Array([0.5, -1, 2]).buffer).toString('base64');
    const parsed = parseEmbeddings(
      {
        data: [
          { index: 1, embedding: base64 },
          { index: 0, embedding: [1, 2, 3] },
        ],
      },
      2,
    );
    expect(parsed.ok && parsed.vectors.map((v) => Array.from(v))).toEqual([
      [1, 2, 3],
      [0.5, -1, 2],
    ]);
    expect(parseEmbeddings({ data: [{ embedding: [1] }] }, 2)).toEqual({
      ok: false,
      problem: 'the answer has 1 embeddings for 2 inputs',
    });
    expect(parseEmbeddings({ data: [{ embedding: [1, 2] }, { embedding: [1] }] }, 2)).toEqual({
      ok: false,
      problem: 'embedding 1 has 1 dimensions, the first has 2',
    });
    expect(parseEmbeddings({ data: [{ embedding: ['a'] }] }, 1).ok).toBe(false);
    expect(parseEmbeddings({ error: 'x' }, 1)).toEqual({
      ok: false,
      problem: 'the answer has no data array',
    });
  });

  it('finds the message in every error body shape in the wild', () => {
    expect(serverErrorMessage('{"error":{"message":"Invalid model","type":"invalid_request_error"}}')).toBe(
      'Invalid model',
    ); // OpenAI
    expect(serverErrorMessage('{"error":"model \\"x\\" not found, try pulling it first"}')).toBe(
      'model "x" not found, try pulling it first',
    ); // Ollama
    expect(serverErrorMessage('{"error":"Input validation error","error_type":"Validation"}')).toBe(
      'Input validation error',
    ); // TEI
    expect(
      serverErrorMessage(
        '{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}',
      ),
    ).toBe('max_tokens is too large'); // vLLM
    expect(serverErrorMessage('{"detail":[{"loc":["body","model"],"msg":"field required"}]}')).toBe(
      '[{"loc":["body","model"],"msg":"field required"}]',
    ); // FastAPI
    expect(serverErrorMessage('<html>\n  502 Bad Gateway\n</html>')).toBe('<html> 502 Bad Gateway </html>');
    expect(serverErrorMessage('x'.repeat(2_000))).toHaveLength(501);
  });

  it('recognises a server that does not take this response format', () => {
    expect(isResponseFormatRejection(400, 'response_format type "json_schema" is not supported')).toBe(true);
    expect(
      isResponseFormatRejection(
        400,
        "Invalid schema for response_format 'Facts': 'additionalProperties' is required",
      ),
    ).toBe(true);
    expect(isResponseFormatRejection(422, 'json_schema: extra fields not permitted')).toBe(true);
    expect(isResponseFormatRejection(400, "This model's maximum context length is 8192 tokens")).toBe(false);
    expect(isResponseFormatRejection(500, 'response_format crashed the server')).toBe(false);
  });
});
