import { parseItemRef } from './item-ref';

describe('parseItemRef', () => {
  it('reads the kind and the row id of a ref', () => {
    expect(parseItemRef('message:123')).toEqual({ kind: 'message', id: '123' });
    expect(parseItemRef('summary:45')).toEqual({ kind: 'summary', id: '45' });
    expect(parseItemRef('fact:6')).toEqual({ kind: 'fact', id: '6' });
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '12',
      'fact',
      'fact:',
      'note:1',
      'fact:x',
      'fact:0',
      'Fact:1',
      'fact:1:2',
      ' fact:1',
    ])
      expect(parseItemRef(text)).toBeNull();
  });
});
