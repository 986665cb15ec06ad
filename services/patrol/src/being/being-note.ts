import { timestampFromDate, type BeingNoteSchema, type MessageInitShape } from '@engram/contracts';

export type BeingNoteInit = MessageInitShape<typeof BeingNoteSchema>;

/** A row of notes as NOTE_COLUMNS reads it. */
export interface NoteRow {
  id: string;
  kind: string;
  content: string;
  parse_failed: boolean;
  due_at: Date | null;
  read_at: Date | null;
  created_at: Date;
  processed_at: Date | null;
}

export const NOTE_COLUMNS =
  'id::text AS id, kind, content, parse_failed, due_at, read_at, created_at, processed_at';

export const toBeingNote = (r: NoteRow): BeingNoteInit => ({
  id: r.id,
  kind: r.kind,
  content: r.content,
  parseFailed: r.parse_failed,
  ...(r.due_at && { dueAt: timestampFromDate(r.due_at) }),
  ...(r.read_at && { readAt: timestampFromDate(r.read_at) }),
  createdAt: timestampFromDate(r.created_at),
  ...(r.processed_at && { processedAt: timestampFromDate(r.processed_at) }),
});
