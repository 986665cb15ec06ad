/**
 * A row of `api_keys`: a key of the api edge and its tenant. Only the key's SHA-256 is kept.
 * Snake_case, as Postgres names the columns.
 */
export interface ApiKeyRow {
  /** `key_` + 12 characters: names the key in lists and in `apikey revoke`; not secret. */
  readonly id: string;
  readonly tenant_id: string;
  readonly name: string;
  /** The key's first characters, for telling keys apart in a list. */
  readonly prefix: string;
  readonly sha256: Buffer;
  readonly created_at: Date;
  /** Noted at most once a minute. */
  readonly last_used_at: Date | null;
  readonly revoked_at: Date | null;
}
