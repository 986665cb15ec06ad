import { summaryForest, summaryLevel, type SummaryNode } from './summary-tree';

const node = (
  id: string,
  depth: number,
  children: string[] = [],
  messageIds: string[] = [],
): SummaryNode => ({
  id,
  depth,
  content: `summary ${id}`,
  messageCount: '1',
  children,
  messageIds,
});

/** Ids of a forest, nested as the page shows them. */
const shape = (forest: ReturnType<typeof summaryForest>): unknown =>
  forest.map((b) => (b.children.length ? { [b.node.id]: shape(b.children) } : b.node.id));

describe('summaryForest', () => {
  it('nests a root over branches over leaves, children in their order', () => {
    const nodes = [
      node('9', 2, ['7', '8']),
      node('7', 1, ['4', '5']),
      node('8', 1, ['6']),
      node('4', 0, [], ['1']),
      node('5', 0, [], ['2']),
      node('6', 0, [], ['3']),
    ];
    expect(shape(summaryForest(nodes))).toEqual([{ '9': [{ '7': ['4', '5'] }, { '8': ['6'] }] }]);
  });

  it('keeps summaries not yet under a parent at the top, in the answer’s order', () => {
    expect(shape(summaryForest([node('7', 1, ['4']), node('4', 0), node('5', 0)]))).toEqual([
      { '7': ['4'] },
      '5',
    ]);
  });

  it('leaves out a child it does not have, or one not below it', () => {
    expect(shape(summaryForest([node('9', 2, ['8', '404']), node('8', 1, ['7']), node('7', 1)]))).toEqual([
      { '9': ['8'] },
    ]);
  });

  it('says what each depth is', () => {
    expect([0, 1, 2].map(summaryLevel)).toEqual(['leaf', 'branch', 'root']);
  });
});
