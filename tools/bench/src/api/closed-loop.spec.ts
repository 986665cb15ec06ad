import { closedLoop } from './closed-loop';

describe('closedLoop', () => {
  it('sends every request once, never more than `clients` at once', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let most = 0;
    const latencies = await closedLoop(20, 3, async (i) => {
      seen.push(i);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
    });
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    expect(latencies).toHaveLength(20);
    expect(most).toBe(3);
  });

  it('stops at the first failure', async () => {
    await expect(
      closedLoop(5, 2, async (i) => {
        if (i === 2) throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});
