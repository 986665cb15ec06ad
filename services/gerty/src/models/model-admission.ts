import { Semaphore, RpcError } from '@engram/messaging';

/**
 * Each model works on at most `concurrency` requests at once; up to `maxQueued` more
 * wait their turn; beyond that the caller is told at once that the model is busy,
 * rather than joining an unbounded backlog.
 */
export class ModelAdmission {
  private readonly slots: Semaphore;

  constructor(
    private readonly model: string,
    private readonly maxQueued: number,
    concurrency: number,
  ) {
    this.slots = new Semaphore(concurrency);
  }

  get inFlight(): number {
    return this.slots.inUse;
  }

  get queued(): number {
    return this.slots.waiting;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.slots.tryAcquire()) {
      if (this.slots.waiting >= this.maxQueued) {
        throw new RpcError(
          'RESOURCE_EXHAUSTED',
          `model ${this.model} is busy (${this.slots.inUse} running, ${this.slots.waiting} waiting)`,
          {
            model: this.model,
            retryable: true,
          },
        );
      }
      await this.slots.acquire();
    }
    try {
      return await work();
    } finally {
      this.slots.release();
    }
  }
}
