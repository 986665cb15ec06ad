import { lastLines } from './service-process';

describe('lastLines', () => {
  it('keeps the last lines a service printed, without the blank ones', () => {
    expect(lastLines('a\n\nb\nc\n', 2)).toEqual(['b', 'c']);
    expect(lastLines('a\nb\n', 5)).toEqual(['a', 'b']);
    expect(lastLines('', 5)).toEqual([]);
  });
});
