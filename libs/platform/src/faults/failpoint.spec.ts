import { armedFailpoints } from './failpoint';

describe('armedFailpoints', () => {
  it('reads names and optional prefixes, ignoring blanks', () => {
    expect(armedFailpoints(' outbox.after-commit:mem.summary.created , other,')).toEqual([
      { name: 'outbox.after-commit', prefix: 'mem.summary.created' },
      { name: 'other', prefix: '' },
    ]);
  });

  it('arms nothing when unset or empty', () => {
    expect(armedFailpoints(undefined)).toEqual([]);
    expect(armedFailpoints('')).toEqual([]);
  });
});
