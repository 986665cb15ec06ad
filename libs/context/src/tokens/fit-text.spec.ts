import { fitText } from './fit-text';
import { tokenCounterFor } from './token-counter';

const estimate = tokenCounterFor('local');
const exact = tokenCounterFor('gpt-4o');

describe('fitText', () => {
  it('keeps a text that fits whole', () => {
    expect(fitText('short text', 100, estimate)).toEqual({ text: 'short text', tokens: 3, truncated: false });
  });

  it('cuts the middle of a long text, keeping head and tail, within the bound', () => {
    const text = `TITLE ${'filler words here. '.repeat(500)} NEWEST LINE`;
    for (const counter of [estimate, exact]) {
      const fitted = fitText(text, 120, counter)!;
      expect(fitted.truncated).toBe(true);
      expect(fitted.tokens).toBeLessThanOrEqual(120);
      expect(fitted.tokens).toBe(counter.count(fitted.text));
      expect(fitted.text.startsWith('TITLE')).toBe(true);
      expect(fitted.text.endsWith('NEWEST LINE')).toBe(true);
      expect(fitted.text).toMatch(/truncated: \d+ of \d+ tokens kept/);
    }
  });

  it('gives up when not even the marker fits', () => {
    expect(fitText('x'.repeat(1000), 3, estimate)).toBeNull();
  });
});
