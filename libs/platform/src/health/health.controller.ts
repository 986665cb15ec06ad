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
  async ready() {
    const verdicts = await this.readiness.report();
    return this.health.check(
      verdicts.map((v) => async () => {
        const indicator = this.indicators.check(v.name);
        return v.up ? indicator.up(v.details) : indicator.down({ reason: v.reason });
      }),
    );
  }
}
