import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { stopTelemetry } from '@engram/telemetry';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { HealthController } from './health/health.controller';
import { ReadinessRegistry } from './health/readiness.registry';
import { ShutdownBudget } from './bootstrap/shutdown-budget';
import { loggerOptions } from './logging/logger.options';
import { MetricsController } from './metrics/metrics.controller';
import { startDefaultMetrics } from './metrics/metrics';

export interface PlatformOptions {
  readonly service: string;
  readonly logLevel: string;
}

/** Logs, health, readiness and metrics: what every service has the same way. */
@Global()
@Module({})
export class PlatformModule implements OnApplicationShutdown {
  static forRoot(options: PlatformOptions): DynamicModule {
    startDefaultMetrics(options.service);
    return {
      module: PlatformModule,
      imports: [
        LoggerModule.forRoot(loggerOptions(options.service, options.logLevel)),
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [ReadinessRegistry, ShutdownBudget],
      exports: [ReadinessRegistry, ShutdownBudget],
    };
  }

  constructor(private readonly shutdown: ShutdownBudget) {}

  /** Flushes the last spans after everything else closed (an absent collector does not hold the exit). */
  async onApplicationShutdown(): Promise<void> {
    await this.shutdown.within('flushing telemetry', stopTelemetry());
  }
}
