import { spanOf, spanOfMessages } from './summary-span';

describe('spanOf', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

  it('runs from the earliest start to the latest end and adds up the messages', () => {
    expect(
      spanOf([
        { earliestAt: at(10), latestAt: at(20), messageCount: 4 },
        { earliestAt: at(5), latestAt: at(30), messageCount: 6 },
      ]),
    ).toEqual({ earliestAt: at(5), latestAt: at(30), messageCount: 10 });
  });

  it('spans a leaf over its messages, whatever their order', () => {
    expect(spanOfMessages([at(3), at(1), at(2)])).toEqual({
      earliestAt: at(1),
      latestAt: at(3),
      messageCount: 3,
    });
  });

  it('refuses an empty span', () => {
    expect(() => spanOf([])).toThrow();
  });
});
