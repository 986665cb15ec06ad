import type { ConfigOf } from '@engram/config';

export interface OutboxOptions {
  /** How often the relay sweeps for rows that were committed but not published. */
  readonly intervalMs: number;
  /** Attempts of one row (NATS being down does not count) before it is dead-lettered. */
  readonly maxAttempts: number;
}

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');

/** The relay's options from a service's validated config. */
export function outboxOptionsFrom(
  config: ConfigOf<'OUTBOX_RELAY_INTERVAL_MS' | 'OUTBOX_MAX_ATTEMPTS'>,
): OutboxOptions {
  return {
    intervalMs: config.OUTBOX_RELAY_INTERVAL_MS,
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
  };
}
