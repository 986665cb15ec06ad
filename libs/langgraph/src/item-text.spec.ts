import { itemText, MAX_ITEM_TEXT, textsAt } from './item-text';

describe("an item's searchable text", () => {
  const memory = {
    text: 'Ada prefers tea',
    tags: ['drinks', 'mornings'],
    meta: { source: 'chat', turns: 3, chapters: [{ title: 'One' }, { title: 'Two' }] },
  };

  it('is every string of the value, one per line, when no fields are named', () => {
    expect(itemText(memory)).toBe('Ada prefers tea\ndrinks\nmornings\nchat\nOne\nTwo');
  });

  it('is the texts at the named fields, as LangGraph index paths read them', () => {
    expect(itemText(memory, ['text'])).toBe('Ada prefers tea');
    expect(itemText(memory, ['meta.chapters[*].title', 'meta.turns'])).toBe('One\nTwo\n3');
    expect(textsAt(memory, 'meta.chapters[-1].title')).toEqual(['Two']);
    expect(textsAt(memory, 'tags[0]')).toEqual(['drinks']);
    expect(textsAt(memory, 'meta.chapters[0]')).toEqual(['{"title":"One"}']);
    expect(textsAt(memory, '$')).toEqual([JSON.stringify(memory)]);
    expect(textsAt(memory, 'missing.field')).toEqual([]);
  });

  it('is the value as JSON when nothing else reads as text (no strings, no indexing)', () => {
    expect(itemText({ count: 3 })).toBe('{"count":3}');
    expect(itemText(memory, false)).toBe(JSON.stringify(memory));
    expect(itemText(memory, ['missing'])).toBe(JSON.stringify(memory));
  });

  it('is cut at the longest text a fact holds', () => {
    expect([...itemText({ text: 'é'.repeat(MAX_ITEM_TEXT + 10) })]).toHaveLength(MAX_ITEM_TEXT);
  });
});
