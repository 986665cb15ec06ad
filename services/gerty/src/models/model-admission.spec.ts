import { RpcError } from '@engram/messaging';
import { ModelAdmission } from './model-admission';

/** A unit of work the test finishes when it wants. */
interface Job {
  readonly id: number;
  started: boolean;
  finish(): void;
  fail(error: Error): void;
}

/** Runs jobs through an admission, recording which run, and how many at once. */
function harness(admission: ModelAdmission) {
  let running = 0;
  let mostAtOnce = 0;
  const startOrder: number[] = [];
  const jobs: Job[] = [];

  function submit(): { job: Job; result: Promise<number> } {
    const id = jobs.length + 1;
    let finish!: () => void;
    let fail!: (error: Error) => void;
    const gate = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const job: Job = { id, started: false, finish: () => finish(), fail: (e) => fail(e) };
    jobs.push(job);
    const result = admission.run(async () => {
      job.started = true;
      startOrder.push(id);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        await gate;
        return id;
      } finally {
        running--;
      }
    });
    return { job, result };
  }

  return { submit, startOrder, mostAtOnce: () => mostAtOnce, running: () => running };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Whether a promise has settled (without waiting for it). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settle();
  return settled;
}

describe('ModelAdmission', () => {
  it('runs at most `concurrency` requests at once; the others wait and then run in arrival order', async () => {
    const admission = new ModelAdmission('ollama-chat', 10, 2);
    const h = harness(admission);
    const submitted = Array.from({ length: 5 }, () => h.submit());
    await settle();
    expect(h.startOrder).toEqual([1, 2]);
    expect(admission.inFlight).toBe(2);
    expect(admission.queued).toBe(3);

    submitted[1]!.job.finish();
    await settle();
    expect(h.startOrder).toEqual([1, 2, 3]);
    expect(h.running()).toBe(2);

    for (const { job } of submitted) job.finish();
    expect(await Promise.all(submitted.map((s) => s.result))).toEqual([1, 2, 3, 4, 5]);
    expect(h.startOrder).toEqual([1, 2, 3, 4, 5]);
    expect(h.mostAtOnce()).toBe(2);
    expect(admission.inFlight).toBe(0);
    expect(admission.queued).toBe(0);
  });

  it('lets up to `maxQueued` wait, refuses the next one at once with RESOURCE_EXHAUSTED naming the model, and runs the waiting ones', async () => {
    const admission = new ModelAdmission('ollama-chat', 2, 1);
    const h = harness(admission);
    const running = h.submit();
    const waiting = [h.submit(), h.submit()];
    await settle();
    expect(admission.queued).toBe(2);

    const refused = h.submit();
    // Refused while the first is still running: not after waiting for a slot.
    expect(await isSettled(refused.result)).toBe(true);
    expect(running.job.started).toBe(true);
    expect(await isSettled(running.result)).toBe(false);
    const error = await refused.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: 'RESOURCE_EXHAUSTED',
      details: { model: 'ollama-chat', retryable: true },
    });
    expect((error as RpcError).message).toBe('model ollama-chat is busy (1 running, 2 waiting)');
    expect(refused.job.started).toBe(false);

    // The ones that waited all run, one at a time.
    running.job.finish();
    await settle();
    expect(waiting[0]!.job.started).toBe(true);
    expect(waiting[1]!.job.started).toBe(false);
    waiting[0]!.job.finish();
    waiting[1]!.job.finish();
    expect(await Promise.all([running.result, ...waiting.map((w) => w.result)])).toEqual([1, 2, 3]);
    expect(h.mostAtOnce()).toBe(1);

    // With the queue drained, the model takes requests again.
    const later = h.submit();
    later.job.finish();
    expect(await later.result).toBe(5);
  });

  it('with maxQueued 0, refuses anything beyond `concurrency` at once', async () => {
    const admission = new ModelAdmission('local', 0, 1);
    const h = harness(admission);
    const first = h.submit();
    const second = h.submit();
    expect(await isSettled(second.result)).toBe(true);
    await expect(second.result).rejects.toMatchObject({
      code: 'RESOURCE_EXHAUSTED',
      details: { model: 'local' },
    });
    expect(await isSettled(first.result)).toBe(false);
    first.job.finish();
    expect(await first.result).toBe(1);
  });

  it('gives the slot back when the work fails, passing its error on', async () => {
    const admission = new ModelAdmission('local', 0, 1);
    const h = harness(admission);
    const failing = h.submit();
    failing.job.fail(new Error('model crashed'));
    await expect(failing.result).rejects.toThrow('model crashed');
    expect(admission.inFlight).toBe(0);
    const next = h.submit();
    next.job.finish();
    expect(await next.result).toBe(2);
  });
});
