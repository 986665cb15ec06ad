import { create, BeingSchema, ClusterSummarySchema, type ClusterSummary } from '@engram/contracts';
import { clusterTreeLines, renderBeing, renderClusterTree } from './being-tree';

const cluster = (
  id: string,
  name: string,
  parentId: string,
  counts: [number, number, number] = [0, 0, 0],
  root = '',
): ClusterSummary =>
  create(ClusterSummarySchema, {
    id,
    name,
    root,
    parentId,
    active: counts[0],
    dying: counts[1],
    dead: counts[2],
  });

describe('renderClusterTree', () => {
  it('nests sub-clusters under their parents, roots first, with counts by status lined up', () => {
    expect(
      renderClusterTree([
        cluster('1', 'Business', '1', [3, 0, 0], 'business'),
        cluster('2', 'Private', '2', [12, 1, 3], 'private'),
        cluster('5', 'Family', '2', [4, 0, 1]),
        cluster('6', 'Clients', '1', [2, 0, 0]),
        cluster('7', 'Cooking', '2', [3, 0, 0]),
        cluster('9', 'Kids', '5', [2, 1, 0]),
      ]),
    ).toBe(
      [
        'Business   active 3 · dying 0 · dead 0',
        '  Clients  active 2 · dying 0 · dead 0',
        'Private    active 12 · dying 1 · dead 3',
        '  Family   active 4 · dying 0 · dead 1',
        '    Kids   active 2 · dying 1 · dead 0',
        '  Cooking  active 3 · dying 0 · dead 0',
      ].join('\n'),
    );
  });

  it('shows a cluster whose parent is missing, or on a cycle, at the top and says so, each once', () => {
    const clusters = [
      cluster('1', 'Private', '1', [1, 0, 0], 'private'),
      cluster('4', 'Stray', '99'),
      cluster('6', 'A', '7'),
      cluster('7', 'B', '6'),
    ];
    expect(clusterTreeLines(clusters).map((l) => [l.depth, l.cluster.id])).toEqual([
      [0, '1'],
      [0, '4'],
      [0, '6'],
      [1, '7'],
    ]);
    expect(renderClusterTree(clusters).split('\n')).toEqual([
      'Private                     active 1 · dying 0 · dead 0',
      'Stray (parent missing: 99)  active 0 · dying 0 · dead 0',
      'A (parent cycle: 7)         active 0 · dying 0 · dead 0',
      '  B                         active 0 · dying 0 · dead 0',
    ]);
  });
});

describe('renderBeing', () => {
  it('prints the tree, then the soul and the counts', () => {
    const being = create(BeingSchema, {
      agent: 'ada',
      soul: { personality: 'Warm.', voice: '', values: ['care', 'honesty'], examples: ['Hi!'] },
      rules: [
        { id: '1', rule: 'Be kind.', enabled: true },
        { id: '2', rule: 'Be loud.', enabled: false },
      ],
      relationships: [{ person: 'Mia', relation: 'sister' }],
      preferences: [],
      clusters: [
        cluster('1', 'Business', '1', [0, 0, 0], 'business'),
        cluster('2', 'Private', '2', [2, 0, 1], 'private'),
      ],
      unreadNotes: 4,
      pendingScenes: 2,
    });
    expect(renderBeing(being)).toBe(
      [
        'being ada',
        '',
        'Business  active 0 · dying 0 · dead 0',
        'Private   active 2 · dying 0 · dead 1',
        '',
        'soul            personality, 2 value(s), 1 example(s)',
        'partner rules   2 (1 enabled)',
        'relationships   1',
        'preferences     0',
        'unread notes    4',
        'pending scenes  2',
      ].join('\n'),
    );
  });

  it('says when there is no soul and no cluster yet', () => {
    const text = renderBeing(create(BeingSchema, { agent: 'new' }));
    expect(text).toContain('(no clusters yet)');
    expect(text).toContain('soul            none');
  });
});
