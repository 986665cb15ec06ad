/** One call of a closed-loop run: how long it took and how it ended. */
export interface CallOutcome<R> {
  readonly latencyMs: number;
  readonly value?: R;
  /** The error's code (RpcError) or name and message, when the call failed. */
  readonly error?: string;
}

export interface ClosedLoopRun<R> {
  /** In the order of the items. */
  readonly outcomes: ReadonlyArray<CallOutcome<R>>;
  readonly wallMs: number;
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * `clients` concurrent callers, each sending its next item as soon as its previous call
 * returned (a closed loop: the concurrency is fixed, the rate is whatever the system gives),
 * until every item was sent once. Each call is timed from the caller's side.
 */
export async function runClosedLoop<T, R>(
  items: readonly T[],
  clients: number,
  call: (item: T, client: number) => Promise<R>,
): Promise<ClosedLoopRun<R>> {
  const outcomes = new Array<CallOutcome<R>>(items.length);
  let next = 0;
  const started = performance.now();
  const worker = async (client: number) => {
    for (let i = next++; i < items.length; i = next++) {
      const t0 = performance.now();
      try {
        const value = await call(items[i]!, client);
        outcomes[i] = { latencyMs: performance.now() - t0, value };
      } catch (error) {
        outcomes[i] = { latencyMs: performance.now() - t0, error: describe(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
  return { outcomes, wallMs: performance.now() - started };
}
