/** The human part of anything thrown: what goes into retries' logs and dead letters' reasons. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
