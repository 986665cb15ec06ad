import { EngramDeadlineExceededError, EngramInvalidArgumentError, EngramUnavailableError } from './errors';
import { backoffDelayMs, unavailableOrTimedOut, withRetries } from './retry';

describe('backoffDelayMs', () => {
  const policy = { retries: 5, baseDelayMs: 200, maxDelayMs: 2_000 };

  it('doubles with every retry, up to the maximum', () => {
    const top = () => 1;
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, top))).toEqual([200, 400, 800, 1600, 2000]);
  });

  it('jitters each wait down to half of it, never above it', () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(400);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(600);
  });
});

describe('withRetries', () => {
  const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('asks again after a backoff while Engram is unavailable, and says how often it did', async () => {
    const waits: number[] = [];
    let attempts = 0;
    const failure = await withRetries(
      async () => {
        attempts++;
        throw new EngramUnavailableError('no service answers mem.rpc.search.acme', 'nats://127.0.0.1:4222');
      },
      policy,
      async (ms) => void waits.push(ms),
    ).catch((error: unknown) => error);

    expect(attempts).toBe(4);
    expect(waits).toHaveLength(3);
    expect(failure).toBeInstanceOf(EngramUnavailableError);
    expect((failure as EngramUnavailableError).retries).toBe(3);
    expect((failure as Error).message).toBe(
      'Engram is not reachable at nats://127.0.0.1:4222: is it running (`npm start`)? retried 3 times (no service answers mem.rpc.search.acme)',
    );
  });

  it('answers as soon as an attempt succeeds', async () => {
    let attempts = 0;
    const answer = await withRetries(
      async () => {
        if (++attempts < 3) throw new EngramUnavailableError('down', 'here');
        return 'found';
      },
      policy,
      async () => undefined,
    );
    expect([answer, attempts]).toEqual(['found', 3]);
  });

  it('never asks again after any other failure', async () => {
    let attempts = 0;
    const refused = new EngramInvalidArgumentError('invalid SearchRequest: query is required');
    await expect(
      withRetries(
        async () => {
          attempts++;
          throw refused;
        },
        policy,
        async () => undefined,
      ),
    ).rejects.toBe(refused);
    expect(attempts).toBe(1);
  });

  it('asks a read again when its answer did not come in time, and a write never', async () => {
    const timedOut = new EngramDeadlineExceededError('mem.rpc.search.acme did not answer within 2000 ms');
    let reads = 0;
    const answer = await withRetries(
      async () => {
        if (++reads < 2) throw timedOut;
        return 'found';
      },
      policy,
      async () => undefined,
      unavailableOrTimedOut,
    );
    expect([answer, reads]).toEqual(['found', 2]);

    let writes = 0;
    await expect(
      withRetries(
        async () => {
          writes++;
          throw timedOut;
        },
        policy,
        async () => undefined,
      ),
    ).rejects.toBe(timedOut);
    expect(writes).toBe(1);
  });

  it('gives up on a read that keeps timing out after the retries, with its timeout', async () => {
    const timedOut = new EngramDeadlineExceededError('no answer');
    let reads = 0;
    await expect(
      withRetries(
        async () => {
          reads++;
          throw timedOut;
        },
        policy,
        async () => undefined,
        unavailableOrTimedOut,
      ),
    ).rejects.toBe(timedOut);
    expect(reads).toBe(4);
  });
});
