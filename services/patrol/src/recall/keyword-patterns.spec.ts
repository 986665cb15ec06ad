import { keywordSearch, substringPattern } from './keyword-patterns';

describe('substringPattern', () => {
  it('takes LIKE wildcards and the escape character literally', () => {
    expect(substringPattern('bread')).toBe('%bread%');
    expect(substringPattern('50%_off\\now')).toBe('%50\\%\\_off\\\\now%');
  });
});

describe('keywordSearch', () => {
  it('needs one keyword for "or" (and by default), every distinct keyword for "and"', () => {
    expect(keywordSearch(['bread', 'lake'], '')).toEqual({ patterns: ['%bread%', '%lake%'], atLeast: 1 });
    expect(keywordSearch(['bread', 'lake'], 'or').atLeast).toBe(1);
    expect(keywordSearch(['bread', 'lake'], 'and').atLeast).toBe(2);
  });

  it('counts a keyword given twice, in any case, once', () => {
    expect(keywordSearch(['Bread', 'bread', 'lake'], 'and')).toEqual({
      patterns: ['%bread%', '%lake%'],
      atLeast: 2,
    });
  });
});
