import { modelWindowOf, promptCeilingOf, UNKNOWN_MODEL_WINDOW_TOKENS } from './model-windows';

describe('model windows', () => {
  it('knows current hosted models, with or without a provider prefix', () => {
    expect(modelWindowOf('gpt-4o-mini').windowTokens).toBe(128_000);
    expect(modelWindowOf('openai/gpt-4o-2024-08-06').windowTokens).toBe(128_000);
    expect(modelWindowOf('anthropic/claude-sonnet-4-5').windowTokens).toBe(200_000);
  });

  it('prefers the longest matching prefix', () => {
    expect(modelWindowOf('gpt-4').windowTokens).toBe(8192);
    expect(modelWindowOf('gpt-4-turbo-preview').windowTokens).toBe(128_000);
    expect(modelWindowOf('gpt-4.1-mini').windowTokens).toBe(1_047_576);
  });

  it('says which models can be counted exactly', () => {
    expect(modelWindowOf('gpt-4o').encoding).toBe('o200k_base');
    expect(modelWindowOf('gpt-3.5-turbo').encoding).toBe('cl100k_base');
    expect(modelWindowOf('claude-3-haiku').encoding).toBeUndefined();
  });

  it('takes an unknown or missing model for a small local one', () => {
    expect(modelWindowOf('my-finetune:7b').windowTokens).toBe(UNKNOWN_MODEL_WINDOW_TOKENS);
    expect(modelWindowOf(undefined).windowTokens).toBe(8192);
    expect(promptCeilingOf('')).toBe(6144);
    expect(promptCeilingOf('gpt-4o')).toBe(96_000);
  });

  it("gives a model served by Ollama Ollama's window, whatever the model's own", () => {
    expect(modelWindowOf('ollama/llama3.1:8b').windowTokens).toBe(8192);
    expect(modelWindowOf('ollama/gpt-oss:20b')).toEqual({
      prefix: 'ollama/',
      windowTokens: 8192,
      encoding: 'o200k_base',
    });
    expect(modelWindowOf('llama3.1:8b').windowTokens).toBe(128_000);
  });

  it("takes the deployment's windows (MODEL_WINDOWS) over the table's, by name or provider", () => {
    const set = { 'ollama/': 32_768, 'my-finetune': 65_536, 'gpt-4.1': 128_000 };
    expect(modelWindowOf('ollama/llama3.1:8b', set).windowTokens).toBe(32_768);
    expect(modelWindowOf('my-finetune:7b', set).windowTokens).toBe(65_536);
    expect(modelWindowOf('openai/gpt-4.1-mini', set)).toEqual({
      prefix: 'gpt-4.1',
      windowTokens: 128_000,
      encoding: 'o200k_base',
    });
    expect(promptCeilingOf('gpt-4.1', set)).toBe(96_000);
    expect(modelWindowOf('gpt-4o', set).windowTokens).toBe(128_000);
  });
});
