/**
 * A failure because a dependency is unreachable (Postgres restarting, NATS
 * reconnecting) says nothing about the message: it is retried until the
 * dependency is back, and never dead-lettered for it.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** Postgres: connection exceptions (class 08), shutdowns and "cannot connect now" (57P0x), too many connections. */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[1-3]|53300)$/;
/** nats.js errors of a connection or JetStream that does not answer right now. */
const NATS_UNAVAILABLE = new Set([
  'TimeoutError',
  'NoRespondersError',
  'ConnectionError',
  'ClosedConnectionError',
  'DrainingConnectionError',
]);
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /DataSource is not initialized|Driver not Connected|No connection options were found/i,
  /connection (is )?closed|CONNECTION_CLOSED|DISCONNECT/i,
];

export function isDependencyFailure(error: unknown): boolean {
  if (error instanceof DependencyUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, cause, name } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    name?: unknown;
  };
  if (typeof name === 'string' && NATS_UNAVAILABLE.has(name)) return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message)))
    return true;
  return cause !== undefined && cause !== error && isDependencyFailure(cause);
}
