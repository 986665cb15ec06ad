/**
 * Fault injection for crash tests (ENGRAM_FAILPOINTS, never set in production): a list
 * of points, `name` or `name:prefix`, at which the process kills itself with SIGKILL,
 * exactly as a crash would — no shutdown hook, no flush. With the variable unset a
 * failpoint is one comparison.
 */
export function failpoint(name: string, detail = ''): void {
  if (armedFailpoints(process.env.ENGRAM_FAILPOINTS).some((p) => matches(p, name, detail))) {
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', message: `failpoint ${name} ${detail}: SIGKILL` })}\n`,
    );
    process.kill(process.pid, 'SIGKILL');
  }
}

interface Failpoint {
  readonly name: string;
  readonly prefix: string;
}

/** `a,b:x` → [{a, ''}, {b, 'x'}]; the prefix is matched against the point's detail. */
export function armedFailpoints(spec: string | undefined): Failpoint[] {
  if (!spec) return [];
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const colon = s.indexOf(':');
      return colon < 0 ? { name: s, prefix: '' } : { name: s.slice(0, colon), prefix: s.slice(colon + 1) };
    });
}

function matches(point: Failpoint, name: string, detail: string): boolean {
  return point.name === name && detail.startsWith(point.prefix);
}
