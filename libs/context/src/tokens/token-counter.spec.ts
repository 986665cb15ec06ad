import { tokenCounterFor } from './token-counter';

describe('token counter', () => {
  it('counts exactly with the tokenizer of a model whose tokenizer is public', () => {
    const counter = tokenCounterFor('gpt-4o');
    expect(counter.exact).toBe(true);
    // o200k_base: "hello world" is two tokens, while 4 characters per token would say 3.
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('')).toBe(0);
  });

  it('estimates 4 characters per token for other models', () => {
    const counter = tokenCounterFor('llama-local');
    expect(counter.exact).toBe(false);
    expect(counter.count('hello world')).toBe(3);
  });

  it('does not choke on text that looks like special tokens', () => {
    expect(tokenCounterFor('gpt-4o').count('<|endoftext|>')).toBeGreaterThan(0);
  });
});
