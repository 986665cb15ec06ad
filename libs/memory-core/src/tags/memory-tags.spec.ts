import { parseMemoryTags } from './memory-tags';

describe('parseMemoryTags', () => {
  it('extracts memories and state and hides them from the displayed text', () => {
    const parsed = parseMemoryTags(
      'Noted, I will use dark mode. [MEMORY:user_preference] The user prefers dark mode. [/MEMORY] [STATE:theme]dark[/STATE]',
    );
    expect(parsed.display).toBe('Noted, I will use dark mode.');
    expect(parsed.memories).toEqual([
      { type: 'user_preference', content: 'The user prefers dark mode.', index: 0 },
    ]);
    expect(parsed.state).toEqual([{ key: 'theme', value: 'dark' }]);
  });

  it('handles several tags, multi-line bodies and any letter case', () => {
    const parsed = parseMemoryTags(
      'First.\n[memory:STICKY]\nThe user is called Ada.\n[/memory]\nSecond.\n\n\n[MEMORY:project_context]Ships on Friday[/MEMORY]',
    );
    expect(parsed.memories.map((m) => [m.type, m.content, m.index])).toEqual([
      ['sticky', 'The user is called Ada.', 0],
      ['project_context', 'Ships on Friday', 1],
    ]);
    expect(parsed.display).toBe('First.\nSecond.');
  });

  it('leaves malformed or mismatched tags in the text', () => {
    const text = 'See [MEMORY:sticky] unclosed, and [STATE:x] mismatched [/MEMORY].';
    const parsed = parseMemoryTags(text);
    expect(parsed.display).toBe(text);
    expect(parsed.memories).toEqual([]);
    expect(parsed.state).toEqual([]);
  });

  it('drops an empty memory but still strips its tag', () => {
    const parsed = parseMemoryTags('Hello [MEMORY:sticky]   [/MEMORY] world');
    expect(parsed.display).toBe('Hello world');
    expect(parsed.memories).toEqual([]);
  });

  it('keeps an empty state value: it clears the key', () => {
    expect(parseMemoryTags('[STATE:draft][/STATE]ok').state).toEqual([{ key: 'draft', value: '' }]);
  });

  it('returns text without brackets untouched', () => {
    const text = '  plain text, with  spacing  ';
    expect(parseMemoryTags(text).display).toBe(text);
  });
});
