import { resavedFactKey, savedFactKey } from './saved-fact-key';

describe('savedFactKey', () => {
  it('is the same for the same agent and the same words, whatever the case, spacing or Unicode form', () => {
    const key = savedFactKey('helper', 'The user prefers dark mode.');
    expect(savedFactKey('helper', '  the USER   prefers\ndark mode. ')).toBe(key);
    expect(savedFactKey('helper', 'Ｔhe user prefers dark mode.')).toBe(key); // full-width T (NFKC)
    expect(key).toMatch(/^saved:helper:[A-Za-z0-9_-]{43}$/);
  });

  it('differs for another agent or other content', () => {
    const key = savedFactKey('helper', 'The user prefers dark mode.');
    expect(savedFactKey('other', 'The user prefers dark mode.')).not.toBe(key);
    expect(savedFactKey('helper', 'The user prefers light mode.')).not.toBe(key);
  });

  it('gives a fact said again after the first was closed a key of its own', () => {
    const key = savedFactKey('helper', 'x');
    expect(resavedFactKey(key, '42')).toBe(`${key}:after:42`);
  });
});
