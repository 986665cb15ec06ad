import { clusterForest, importanceCurve, statusCounts, type ClusterSummary } from './being';

const cluster = (id: string, parentId: string, root = '', counts = [0, 0, 0]): ClusterSummary => ({
  id,
  name: `c${id}`,
  root,
  parentId,
  active: counts[0]!,
  dying: counts[1]!,
  dead: counts[2]!,
});

describe('clusterForest', () => {
  it('puts Business before Private and sub-clusters under their parent, summing counts down the tree', () => {
    const forest = clusterForest([
      cluster('2', '2', 'private', [1, 0, 0]),
      cluster('1', '1', 'business', [2, 1, 0]),
      cluster('5', '1', '', [3, 0, 1]),
      cluster('4', '1', '', [0, 2, 0]),
      cluster('6', '5', '', [1, 1, 1]),
    ]);
    expect(forest.map((b) => b.cluster.id)).toEqual(['1', '2']);
    expect(forest[0]!.children.map((b) => b.cluster.id)).toEqual(['4', '5']);
    expect(forest[0]!.children[1]!.children.map((b) => b.cluster.id)).toEqual(['6']);
    expect(forest[0]!.total).toEqual({ active: 6, dying: 4, dead: 2 });
    expect(forest[1]!.total).toEqual({ active: 1, dying: 0, dead: 0 });
  });

  it('shows a cluster whose parent is missing as a root instead of dropping it', () => {
    expect(clusterForest([cluster('9', '8')]).map((b) => b.cluster.id)).toEqual(['9']);
  });
});

describe('statusCounts', () => {
  it('names every status, zeros included', () => {
    expect(statusCounts({ active: 3, dying: 0, dead: 1 })).toBe('3 active, 0 dying, 1 dead');
  });
});

describe('importanceCurve', () => {
  it('labels each point by its run, marking the run that made the node', () => {
    expect(
      importanceCurve([
        {
          runId: '3',
          step: 'scenes',
          importance: 0.8,
          effectiveImportance: 0.8,
          status: 'active',
          recordedAt: '',
        },
        {
          runId: '3',
          step: 'decay',
          importance: 0.8,
          effectiveImportance: 0.77378,
          status: 'active',
          recordedAt: '',
        },
      ]),
    ).toEqual([
      { run: 'run 3 (made)', effective: 0.8, importance: 0.8, status: 'active' },
      { run: 'run 3', effective: 0.774, importance: 0.8, status: 'active' },
    ]);
  });
});
