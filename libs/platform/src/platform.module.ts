import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { stopTelemetry } from '@engram/telemetry';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { HealthController } from './health/health.controller';
import { ReadinessRegistry } from './health/readiness.registry';
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
      providers: [ReadinessRegistry],
      exports: [ReadinessRegistry],
    };
  }

  /** Flushes the last spans after everything else closed. */
  async onApplicationShutdown(): Promise<void> {
    await stopTelemetry();
  }
}
