/**
 * Where a page of the transcript ended: the ordering key of its last message.
 * The transcript's order is (created_at, stream_seq, position, id); created_at
 * travels as Postgres wrote it (microseconds), so paging never skips a row.
 */
export interface TranscriptPosition {
  readonly createdAt: string;
  readonly streamSeq: string;
  readonly position: number;
  readonly id: string;
}

export type PageDirection = 'forward' | 'backward';

export interface TranscriptCursor extends TranscriptPosition {
  /** Which way the next page goes from here. */
  readonly direction: PageDirection;
}

export function encodeCursor(cursor: TranscriptCursor): string {
  const { createdAt, streamSeq, position, id, direction } = cursor;
  return Buffer.from(
    JSON.stringify([1, direction === 'forward' ? 'f' : 'b', createdAt, streamSeq, position, id]),
  ).toString('base64url');
}

/** Null when the text is not a cursor this code wrote. */
export function decodeCursor(text: string): TranscriptCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 6 || value[0] !== 1) return null;
    const [, dir, createdAt, streamSeq, position, id] = value as [
      number,
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
    ];
    if ((dir !== 'f' && dir !== 'b') || typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
      return null;
    if (
      typeof streamSeq !== 'string' ||
      !/^\d+$/.test(streamSeq) ||
      typeof id !== 'string' ||
      !/^\d+$/.test(id)
    )
      return null;
    if (typeof position !== 'number' || !Number.isInteger(position)) return null;
    return { direction: dir === 'f' ? 'forward' : 'backward', createdAt, streamSeq, position, id };
  } catch {
    return null;
  }
}
