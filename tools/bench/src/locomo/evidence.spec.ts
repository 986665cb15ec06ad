import { normaliseDiaId, resolveEvidence } from './evidence';

describe('LoCoMo evidence ids', () => {
  it.each([
    ['D3:7', 'D3:7'],
    ['D30:05', 'D30:5'],
    [' d1:003 ', 'D1:3'],
    ['D', null],
    ['D:11:26', null],
    ['D3', null],
    ['S3:7', null],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normaliseDiaId(raw)).toBe(expected);
  });

  const known = new Set(['D1:1', 'D1:2', 'D4:4', 'D8:6', 'D9:1', 'D9:17', 'D30:5']);

  it('splits entries that join several ids with ";" or spaces', () => {
    expect(resolveEvidence(['D8:6; D9:17', 'D9:1 D4:4'], known)).toEqual({
      turns: ['D8:6', 'D9:17', 'D9:1', 'D4:4'],
      unresolved: [],
    });
  });

  it('normalises leading zeros and counts a turn once', () => {
    expect(resolveEvidence(['D30:05', 'D30:5', 'D1:01'], known)).toEqual({
      turns: ['D30:5', 'D1:1'],
      unresolved: [],
    });
  });

  it('skips malformed ids and ids of turns that were not ingested', () => {
    expect(resolveEvidence(['D', 'D:11:26', 'D2:9', 'D1:2'], known)).toEqual({
      turns: ['D1:2'],
      unresolved: ['D', 'D:11:26', 'D2:9'],
    });
  });

  it('resolves nothing for a question without usable evidence', () => {
    expect(resolveEvidence([], known).turns).toEqual([]);
    expect(resolveEvidence(['D99:1', ' ; '], known)).toEqual({ turns: [], unresolved: ['D99:1'] });
  });
});
