import {
  attributionPrefix,
  isoDay,
  isoMinute,
  ordinalWidthFor,
  renderPreamble,
  renderTranscriptLine,
} from './attribution';

const at = new Date('2026-04-18T12:00:59.999Z');

describe('isoMinute / isoDay', () => {
  it('renders UTC to the minute, truncating seconds', () => {
    expect(isoMinute(at)).toBe('2026-04-18T12:00Z');
    expect(isoDay(at)).toBe('2026-04-18');
  });

  it('is UTC whatever the offset the date was written with', () => {
    expect(isoMinute(new Date('2026-04-18T14:30:00+02:00'))).toBe('2026-04-18T12:30Z');
  });

  it('rejects an invalid date with a RangeError', () => {
    expect(() => isoMinute(new Date('nope'))).toThrow(RangeError);
  });
});

describe('attributionPrefix', () => {
  it('renders ordinal, ISO-minute timestamp, author and role', () => {
    expect(attributionPrefix({ ordinal: 1, at, author: 'opus', role: 'user' })).toBe(
      '[#01 2026-04-18T12:00Z opus/user]',
    );
  });

  it('pads to the requested width and never truncates a large ordinal', () => {
    expect(attributionPrefix({ ordinal: 7, at, author: 'opus', role: 'assistant' }, 3)).toBe(
      '[#007 2026-04-18T12:00Z opus/assistant]',
    );
    expect(attributionPrefix({ ordinal: 1234, at, author: 'opus', role: 'user' })).toBe(
      '[#1234 2026-04-18T12:00Z opus/user]',
    );
  });

  it('shows the role alone without an author and keeps the prefix one token per field', () => {
    expect(attributionPrefix({ ordinal: 2, at, author: '', role: 'tool' })).toBe(
      '[#02 2026-04-18T12:00Z tool]',
    );
    expect(attributionPrefix({ ordinal: 2, at, author: 'my [agent]', role: 'user' })).toBe(
      '[#02 2026-04-18T12:00Z my_agent_/user]',
    );
  });

  it('has a width that fits the largest ordinal of a span', () => {
    expect(ordinalWidthFor([{ ordinal: 3 }, { ordinal: 140 }])).toBe(3);
    expect(ordinalWidthFor([])).toBe(2);
  });
});

describe('renderTranscriptLine', () => {
  it('folds line breaks so one message is one line', () => {
    expect(
      renderTranscriptLine({
        ordinal: 3,
        at,
        author: 'opus',
        role: 'user',
        text: 'first\n\nsecond\r\nthird ',
      }),
    ).toBe('[#03 2026-04-18T12:00Z opus/user] first second third');
  });
});

describe('renderPreamble', () => {
  it('renders every field on one line', () => {
    expect(
      renderPreamble({
        conversationId: 'c-42',
        agent: 'opus',
        channel: 'telegram',
        title: 'Deploy "review"',
        from: new Date('2026-04-18T12:00:00Z'),
        to: new Date('2026-04-18T13:05:00Z'),
        messageCount: 42,
      }),
    ).toBe(
      `Conversation c-42 · agent opus · channel telegram · "Deploy 'review'" · 2026-04-18T12:00Z–2026-04-18T13:05Z · 42 messages`,
    );
  });

  it('leaves out absent fields and says "message" for one', () => {
    expect(renderPreamble({ conversationId: 'c-1', from: at, to: at, messageCount: 1, title: '  ' })).toBe(
      'Conversation c-1 · 2026-04-18T12:00Z–2026-04-18T12:00Z · 1 message',
    );
  });
});
