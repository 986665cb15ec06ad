import { Injectable } from '@nestjs/common';

/** A dependency the service cannot work without; ready when every check passes. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves with details when healthy; rejects (with a reason) when not. */
  check(): Promise<Record<string, unknown>>;
}

/** Libraries (store, messaging) register what readiness depends on; /health/ready asks them all. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(check: ReadinessCheck): void {
    this.checks.set(check.name, check);
  }

  all(): ReadinessCheck[] {
    return [...this.checks.values()];
  }

  /** True when every check passes. */
  async allReady(): Promise<boolean> {
    const results = await Promise.allSettled(this.all().map((c) => c.check()));
    return results.every((r) => r.status === 'fulfilled');
  }
}
