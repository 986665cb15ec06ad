import type { WindowLine } from './fact-sources';
import { extractedFactExpiry, factsOfExtraction } from './extracted-facts';

const window: WindowLine[] = [
  { id: '1', role: 'user', createdAt: new Date('2026-02-22T10:00:00Z') },
  { id: '2', role: 'assistant', createdAt: new Date('2026-02-22T10:00:01Z') },
  { id: '3', role: 'user', createdAt: new Date('2026-02-22T10:05:00Z') },
];

describe('factsOfExtraction', () => {
  it('gives each fact the lifetime of its category, its sources in the window and when it was said', () => {
    const [task, preference] = factsOfExtraction(
      [
        { content: 'Ada ships on Friday.', category: 'task', importance: 5, sourceMessageIds: ['1', '99'] },
        { content: 'Ada likes tea.', category: 'preference', importance: 8, sourceMessageIds: [] },
      ],
      window,
    );
    expect(task).toEqual({
      content: 'Ada ships on Friday.',
      category: 'task',
      lifetime: 'project_context',
      importance: 5,
      sourceMessageIds: ['1'],
      statedAt: new Date('2026-02-22T10:00:00Z'),
    });
    // Naming no message of the window: the window's user messages, said at the latest.
    expect(preference).toMatchObject({
      lifetime: 'user_preference',
      sourceMessageIds: ['1', '3'],
      statedAt: new Date('2026-02-22T10:05:00Z'),
    });
  });

  it('keeps no source and no time when the window is empty (messages not stored)', () => {
    const [fact] = factsOfExtraction(
      [{ content: 'Ada lives in Lisbon.', category: 'fact', importance: 6, sourceMessageIds: ['1'] }],
      [],
    );
    expect(fact).toMatchObject({ lifetime: 'sticky', sourceMessageIds: [], statedAt: null });
  });
});

describe('extractedFactExpiry', () => {
  const now = new Date('2026-03-01T00:00:00Z');

  it('counts the lifetime from when the fact was said, else from now; sticky never expires', () => {
    const [task, sticky] = factsOfExtraction(
      [
        { content: 'a', category: 'task', importance: 5, sourceMessageIds: ['3'] },
        { content: 'b', category: 'fact', importance: 5, sourceMessageIds: ['3'] },
      ],
      window,
    );
    expect(extractedFactExpiry(task!, now)).toEqual(new Date('2026-03-24T10:05:00Z'));
    expect(extractedFactExpiry({ ...task!, statedAt: null }, now)).toEqual(new Date('2026-03-31T00:00:00Z'));
    expect(extractedFactExpiry(sticky!, now)).toBeNull();
  });
});
