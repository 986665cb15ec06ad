import { decodeCursor, encodeCursor, type TranscriptCursor } from './transcript-cursor';

describe('transcript cursors', () => {
  const cursor: TranscriptCursor = {
    direction: 'forward',
    createdAt: '2026-02-22 10:00:00.123456+00',
    streamSeq: '9007199254740993',
    position: 3,
    id: '12345678901234567',
  };

  it('round-trips the exact ordering key, beyond JavaScript number precision', () => {
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, direction: 'backward' }))?.direction).toBe('backward');
  });

  it('is opaque URL-safe text', () => {
    expect(encodeCursor(cursor)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    '',
    'not-a-cursor',
    Buffer.from('[2,"f","x","1",0,"1"]').toString('base64url'),
    Buffer.from('[1,"f","yesterday","1",0,"1"]').toString('base64url'),
    Buffer.from('{"a":1}').toString('base64url'),
  ])('rejects %j', (text) => {
    expect(decodeCursor(text)).toBeNull();
  });
});
