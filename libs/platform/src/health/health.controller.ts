import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ReadinessRegistry } from './readiness.registry';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** The process is alive and its event loop answers. */
  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([async () => this.indicators.check('process').up({ pid: process.pid })]);
  }

  /** Every dependency answers: the service can do its work. 503 with the failing checks otherwise. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check(
      this.readiness.all().map((dependency) => async () => {
        const indicator = this.indicators.check(dependency.name);
        try {
          return indicator.up(await withTimeout(dependency.check(), 2000));
        } catch (error) {
          return indicator.down({ reason: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
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
