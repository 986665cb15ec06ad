import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** A nullable column's time as an optional Timestamp field: absent stays absent. */
export const optionalTimestamp = (date: Date | null): Timestamp | undefined =>
  date === null ? undefined : timestampFromDate(date);
