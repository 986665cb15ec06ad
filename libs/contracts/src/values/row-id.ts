const MAX_BIGINT = 9223372036854775807n;

/**
 * Whether a string is a row id as the store hands them out (a positive Postgres
 * bigint in decimal). Ids travel as strings; anything else is the caller's mistake,
 * answered as such rather than as a database error.
 */
export function isRowId(value: string): boolean {
  return /^[0-9]{1,19}$/.test(value) && BigInt(value) >= 1n && BigInt(value) <= MAX_BIGINT;
}
