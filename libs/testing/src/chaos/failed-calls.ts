/** A fault as it was inflicted: what, and from when until the system had it back (seconds from the start). */
export interface InflictedFault {
  readonly what: string;
  readonly fromSeconds: number;
  /** When the restarted process was ready, the server back or the stall over. */
  readonly toSeconds: number;
}

/** A search or context build that failed, when and how. */
export interface FailedCall {
  readonly call: 'search' | 'context build';
  readonly atSeconds: number;
  /** The RpcError's code, or the error's name. */
  readonly code: string;
  /** The fault it falls under (blame), or null. */
  readonly fault: string | null;
}

/** How long after a fault is over a failure may still be its doing. */
export const FAULT_AFTERMATH_SECONDS = 5;
/** The share of searches, and of context builds, that may fail through the default run's faults. */
export const MAX_FAILED_SHARE = 0.05;
const PLURAL: Record<FailedCall['call'], string> = { search: 'searches', 'context build': 'context builds' };

/** A fault as the report lists it: `66.2–70.9 s kill retrieval`. */
export function faultLabel(fault: InflictedFault): string {
  return `${fault.fromSeconds.toFixed(1)}–${fault.toSeconds.toFixed(1)} s ${fault.what}`;
}

/**
 * The fault a failure at `atSeconds` is blamed on: of those that began before it and were over
 * no more than FAULT_AFTERMATH_SECONDS before it, the latest to begin; null when none was.
 */
export function blame(atSeconds: number, faults: readonly InflictedFault[]): InflictedFault | null {
  let blamed: InflictedFault | null = null;
  for (const fault of faults)
    if (fault.fromSeconds <= atSeconds && atSeconds <= fault.toSeconds + FAULT_AFTERMATH_SECONDS)
      if (!blamed || fault.fromSeconds > blamed.fromSeconds) blamed = fault;
  return blamed;
}

/**
 * What the calls broke: a kind of call that failed more than `maxShare` of the time (unchecked
 * when null), and failures no fault explains (one line for all of them, with the first few).
 */
export function failedCallProblems(
  tallies: Readonly<Record<FailedCall['call'], { readonly answered: number; readonly failed: number }>>,
  failures: readonly FailedCall[],
  maxShare: number | null = MAX_FAILED_SHARE,
): string[] {
  const problems: string[] = [];
  for (const [call, { answered, failed }] of Object.entries(tallies) as [
    FailedCall['call'],
    typeof tallies.search,
  ][]) {
    const share = failed / Math.max(1, answered + failed);
    if (maxShare !== null && share > maxShare)
      problems.push(
        `${PLURAL[call]} failed ${(100 * share).toFixed(1)} % of the time (${failed} of ${answered + failed}; at most ${100 * maxShare} %)`,
      );
  }
  const unexplained = failures.filter((f) => f.fault === null);
  if (unexplained.length > 0)
    problems.push(
      `${unexplained.length} failed calls fell outside every fault: ${unexplained
        .slice(0, 5)
        .map((f) => `${f.call} at ${f.atSeconds.toFixed(1)} s (${f.code})`)
        .join(', ')}`,
    );
  return problems;
}

/** Failed calls per fault label (and `none`), for the report's summary line. */
export function failuresByFault(failures: readonly FailedCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const failure of failures) {
    const key = failure.fault ?? 'none';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
