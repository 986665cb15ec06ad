import { Injectable } from '@nestjs/common';

/** What a check said: up with its details, or down with the reason. */
export type DependencyVerdict =
  | { readonly name: string; readonly up: true; readonly details: Record<string, unknown> }
  | { readonly name: string; readonly up: false; readonly reason: string };

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

  /** Each check's verdict, a check that does not answer within `timeoutMs` counting as down. */
  async report(timeoutMs = 2000): Promise<DependencyVerdict[]> {
    return Promise.all(
      this.all().map(async (dependency) => {
        try {
          return {
            name: dependency.name,
            up: true,
            details: await withTimeout(dependency.check(), timeoutMs),
          };
        } catch (error) {
          return {
            name: dependency.name,
            up: false,
            reason: error instanceof Error ? error.message : String(error),
          };
        }
      }),
    );
  }

  /** True when every check passes. */
  async allReady(): Promise<boolean> {
    const results = await Promise.allSettled(this.all().map((c) => c.check()));
    return results.every((r) => r.status === 'fulfilled');
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
