import { Semaphore } from './semaphore';

/** Acquires `lane`'s slot, notes the lane once it has it. */
function take(slots: Semaphore, lane: string, served: string[]): Promise<void> {
  return slots.acquire(lane).then(() => void served.push(lane));
}

describe('Semaphore', () => {
  it('serves the waiters of one lane in order', async () => {
    const slots = new Semaphore(1);
    await slots.acquire();
    const served: string[] = [];
    const waiting = ['a', 'b', 'c'].map((n) => slots.acquire().then(() => void served.push(n)));
    expect(slots.waiting).toBe(3);
    for (let i = 0; i < 3; i++) {
      slots.release();
      await waiting[i];
    }
    expect(served).toEqual(['a', 'b', 'c']);
  });

  it("admits a caller to its lane's queue only while fewer than the bound of that lane wait", async () => {
    const slots = new Semaphore(1);
    expect(await slots.admit('facts', 1)).toBe(true);
    const queued = slots.admit('facts', 1);
    expect(await slots.admit('facts', 1)).toBe(false);
    const other = slots.admit('summaries', 1);
    expect({ facts: slots.waitingIn('facts'), summaries: slots.waitingIn('summaries') }).toEqual({
      facts: 1,
      summaries: 1,
    });
    slots.release();
    expect(await queued).toBe(true);
    slots.release();
    expect(await other).toBe(true);
  });

  it('gives freed slots to the lanes in turn: a long queue does not keep a short one waiting', async () => {
    const slots = new Semaphore(1);
    await slots.acquire('facts');
    const served: string[] = [];
    const waiting = [
      ...Array.from({ length: 4 }, () => take(slots, 'facts', served)),
      take(slots, 'summaries', served),
      take(slots, 'summaries', served),
    ];
    expect({ facts: slots.waitingIn('facts'), summaries: slots.waitingIn('summaries') }).toEqual({
      facts: 4,
      summaries: 2,
    });
    for (let i = 0; i < 6; i++) {
      slots.release();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(waiting);
    expect(served).toEqual(['facts', 'summaries', 'facts', 'summaries', 'facts', 'facts']);
    expect(slots.inUse).toBe(1);
    slots.release();
    expect({ inUse: slots.inUse, waiting: slots.waiting }).toEqual({ inUse: 0, waiting: 0 });
  });
});
