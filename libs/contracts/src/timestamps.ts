import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** A nullable column's time as an optional Timestamp field: absent stays absent. */
export const optionalTimestamp = (date: Date | null): Timestamp | undefined =>
  date === null ? undefined : timestampFromDate(date);

/**
 * A moment as an inclusive bound on the store's times (microseconds), in Postgres' text: the
 * last microsecond of its millisecond. Engram's answers carry times to the millisecond, so a
 * search as of a message's `createdAt` includes that message.
 */
export const throughMillisecond = (at: Date): string => at.toISOString().replace(/Z$/, '999Z');
