import { isRowId } from './row-id';

describe('isRowId', () => {
  it('accepts positive decimal bigints', () => {
    expect(isRowId('1')).toBe(true);
    expect(isRowId('9223372036854775807')).toBe(true);
  });

  it('refuses everything else', () => {
    for (const value of [
      '',
      '0',
      '-1',
      '1.5',
      ' 1',
      '1e3',
      'abc',
      '0x10',
      '9223372036854775808',
      '99999999999999999999',
    ]) {
      expect(isRowId(value)).toBe(false);
    }
  });
});
