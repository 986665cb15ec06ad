import { RpcError } from '@engram/messaging';
import { currentLane, Semaphore } from '@engram/platform';

/**
 * Each model works on at most `concurrency` requests at once; up to `maxQueued` more of each
 * lane (whose work a request is: the caller's consumer) wait their turn, the lanes served in
 * turn; beyond that the caller is told at once that the model is busy, rather than joining an
 * unbounded backlog.
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
    if (!(await this.slots.admit(currentLane(), this.maxQueued))) {
      throw new RpcError(
        'RESOURCE_EXHAUSTED',
        `model ${this.model} is busy (${this.slots.inUse} running, ${this.slots.waiting} waiting)`,
        {
          model: this.model,
          retryable: true,
        },
      );
    }
    try {
      return await work();
    } finally {
      this.slots.release();
    }
  }
}
