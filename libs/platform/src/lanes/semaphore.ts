/**
 * Bounds how many async tasks run at once. Waiters queue by lane (whose work they are, see
 * lanes.ts); a freed slot goes to the lanes in turn, first come first served within each, so a
 * lane with a long queue cannot keep another lane's few waiting. With one lane it is a FIFO.
 */
export class Semaphore {
  private active = 0;
  /** Waiters by lane; the first lane is served next, then moves to the back. */
  private readonly lanes = new Map<string, Array<() => void>>();
  private queued = 0;

  constructor(private readonly limit: number) {}

  get inUse(): number {
    return this.active;
  }

  /** Waiters of every lane. */
  get waiting(): number {
    return this.queued;
  }

  /** Waiters of one lane. */
  waitingIn(lane: string): number {
    return this.lanes.get(lane)?.length ?? 0;
  }

  tryAcquire(): boolean {
    if (this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /**
   * Takes a slot, waiting in `lane`'s queue for one unless `maxQueued` of that lane already wait;
   * false (and no slot) when refused.
   */
  async admit(lane: string, maxQueued: number): Promise<boolean> {
    if (this.tryAcquire()) return true;
    if (this.waitingIn(lane) >= maxQueued) return false;
    await this.acquire(lane);
    return true;
  }

  async acquire(lane = ''): Promise<void> {
    if (this.tryAcquire()) return;
    this.queued++;
    await new Promise<void>((resolve) => {
      const waiters = this.lanes.get(lane);
      if (waiters) waiters.push(resolve);
      else this.lanes.set(lane, [resolve]);
    });
  }

  release(): void {
    for (const [lane, waiters] of this.lanes) {
      const next = waiters.shift()!;
      this.lanes.delete(lane);
      if (waiters.length > 0) this.lanes.set(lane, waiters);
      this.queued--;
      next(); // the slot passes on: `active` stays
      return;
    }
    this.active--;
  }

  /** Resolves once nothing holds the semaphore. */
  async idle(): Promise<void> {
    while (this.active > 0 || this.queued > 0) await new Promise((r) => setTimeout(r, 10));
  }
}
