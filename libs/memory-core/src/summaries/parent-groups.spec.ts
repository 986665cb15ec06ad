import { parentGroups } from './parent-groups';

describe('parentGroups', () => {
  it('groups every fanOut consecutive children, oldest first', () => {
    expect(parentGroups([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('makes no parent of fewer than fanOut children', () => {
    expect(parentGroups([1, 2], 3)).toEqual([]);
    expect(parentGroups([], 3)).toEqual([]);
  });
});
