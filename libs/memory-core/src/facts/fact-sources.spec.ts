import { factSources, statedAt, type WindowLine } from './fact-sources';

const window: WindowLine[] = [
  { id: '1', role: 'user', createdAt: new Date('2026-02-22T10:00:00Z') },
  { id: '2', role: 'assistant', createdAt: new Date('2026-02-22T10:00:01Z') },
  { id: '3', role: 'user', createdAt: new Date('2026-02-22T10:05:00Z') },
];

describe('factSources', () => {
  it('keeps the named messages that are in the window, once each', () => {
    expect(factSources(['3', '3', '99'], window)).toEqual(['3']);
  });

  it("falls back to the window's user messages when none named is in it", () => {
    expect(factSources(['99'], window)).toEqual(['1', '3']);
    expect(factSources([], window)).toEqual(['1', '3']);
  });
});

describe('statedAt', () => {
  it("is the latest source's time", () => {
    expect(statedAt(['1', '3'], window)).toEqual(new Date('2026-02-22T10:05:00Z'));
  });

  it('is null without a source in the window', () => {
    expect(statedAt(['99'], window)).toBeNull();
  });
});
