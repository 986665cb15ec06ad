import { timestampFromDate, type BeingNoteSchema, type MessageInitShape } from '@engram/contracts';
import type { NoteRow } from '@engram/store';

export type BeingNoteInit = MessageInitShape<typeof BeingNoteSchema>;

/** A note as NOTE_COLUMNS reads it. */
export type StoredNote = Pick<
  NoteRow,
  'id' | 'kind' | 'content' | 'parse_failed' | 'due_at' | 'read_at' | 'created_at' | 'processed_at'
>;

export const NOTE_COLUMNS =
  'id::text AS id, kind, content, parse_failed, due_at, read_at, created_at, processed_at';

export const toBeingNote = (r: StoredNote): BeingNoteInit => ({
  id: r.id,
  kind: r.kind,
  content: r.content,
  parseFailed: r.parse_failed,
  ...(r.due_at && { dueAt: timestampFromDate(r.due_at) }),
  ...(r.read_at && { readAt: timestampFromDate(r.read_at) }),
  createdAt: timestampFromDate(r.created_at),
  ...(r.processed_at && { processedAt: timestampFromDate(r.processed_at) }),
});
