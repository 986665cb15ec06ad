import { buildTree, excerpt, renderTree, treeJson, type StoredSummary } from './summary-tree';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute, 30));
const summary = (
  id: string,
  depth: number,
  minutes: [number, number],
  childIds: string[] = [],
  messageCount = 4,
): StoredSummary => ({
  id,
  depth,
  content: `Summary ${id}: Ada talked about   Lisbon\nand Porto.`,
  earliestAt: at(minutes[0]),
  latestAt: at(minutes[1]),
  messageCount,
  model: 'engram-local-rules-v1',
  childIds,
});

describe('the summary tree as the CLI prints it', () => {
  // Two leaves under a branch under a root, and a leaf still waiting for its branch.
  const stored = [
    summary('4', 0, [20, 25]),
    summary('3', 2, [0, 10], ['2'], 8),
    summary('1', 0, [0, 4]),
    summary('2', 1, [0, 10], ['1', '5'], 8),
    summary('5', 0, [6, 10]),
  ];
  const tree = {
    conversationId: '7',
    agent: 'helper',
    sessionKey: 's1',
    messages: 14,
    unsummarised: 2,
    roots: buildTree(stored),
  };

  it('links summaries under their parents, in order, with the nodes under no parent on top, oldest first', () => {
    expect(tree.roots.map((r) => [r.id, r.kind])).toEqual([
      ['3', 'root'],
      ['4', 'leaf'],
    ]);
    expect(tree.roots[0]!.children[0]!.children.map((c) => c.id)).toEqual(['1', '5']);
  });

  it('prints depth, id, span to the minute, count, model and the first characters of each summary, indented by level', () => {
    const text = renderTree(tree, { excerptChars: 20 });
    expect(text.split('\n')).toEqual([
      'conversation 7 (agent helper, session s1): 14 messages, 1 roots, 1 branches, 3 leaves; 2 messages under no leaf yet',
      'root #3 depth 2 · 2026-03-01T09:00Z – 2026-03-01T09:10Z · 8 messages · engram-local-rules-v1',
      '  │ Summary 3: Ada talke…',
      '  branch #2 depth 1 · 2026-03-01T09:00Z – 2026-03-01T09:10Z · 8 messages · engram-local-rules-v1',
      '    │ Summary 2: Ada talke…',
      '    leaf #1 depth 0 · 2026-03-01T09:00Z – 2026-03-01T09:04Z · 4 messages · engram-local-rules-v1',
      '      │ Summary 1: Ada talke…',
      '    leaf #5 depth 0 · 2026-03-01T09:06Z – 2026-03-01T09:10Z · 4 messages · engram-local-rules-v1',
      '      │ Summary 5: Ada talke…',
      'leaf #4 depth 0 · 2026-03-01T09:20Z – 2026-03-01T09:25Z · 4 messages · engram-local-rules-v1',
      '  │ Summary 4: Ada talke…',
    ]);
  });

  it('prints whole summaries with --full, and says when there are none', () => {
    expect(renderTree(tree, { full: true })).toContain('│ Summary 3: Ada talked about Lisbon and Porto.');
    expect(renderTree({ ...tree, roots: [] })).toContain('(no summaries yet)');
    expect(excerpt('a b', 200)).toBe('a b');
  });

  it('gives the same tree as JSON, with ISO times and whole contents', () => {
    const json = treeJson(tree) as {
      roots: Array<{
        id: string;
        earliestAt: string;
        content: string;
        children: Array<{ children: Array<{ id: string }> }>;
      }>;
    };
    expect(json.roots[0]).toMatchObject({
      id: '3',
      earliestAt: '2026-03-01T09:00:30.000Z',
      content: 'Summary 3: Ada talked about   Lisbon\nand Porto.',
    });
    expect(json.roots[0]!.children[0]!.children.map((c) => c.id)).toEqual(['1', '5']);
  });
});
