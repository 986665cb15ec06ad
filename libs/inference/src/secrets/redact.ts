const REDACTED = '[redacted]';
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const OPENAI_STYLE_KEY = /\bsk-[A-Za-z0-9_-]{8,}/g;

/**
 * Text safe to put in an error or a log line: every occurrence of the given secrets, and
 * anything shaped like a bearer token or an OpenAI-style key (a server may echo a header
 * back in its error message), replaced by "[redacted]".
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(OPENAI_STYLE_KEY, REDACTED);
}
