import type { CustomTransportStrategy } from '@nestjs/microservices';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { ConfigError, DEFAULT_HTTP_PORTS, type ServiceName } from '@engram/config';
import { Logger } from 'nestjs-pino';
import { ShutdownBudget } from './shutdown-budget';

/** What runService reads of every service's config (GATEWAY_VARIABLES has it). */
interface ShutdownConfig {
  readonly SHUTDOWN_GRACE_MS: number;
}

export interface ServiceDefinition<C extends ShutdownConfig> {
  readonly name: ServiceName;
  /** Reads and validates the environment; a ConfigError stops the process with the list of problems. */
  readonly loadConfig: () => C;
  readonly module: (config: C) => DynamicModule;
  readonly http: (config: C) => { port?: number | undefined; host: string };
  /** The HTTP server under Nest; Express when absent (the api edge runs on Fastify). */
  readonly httpAdapter?: (config: C) => AbstractHttpAdapter;
  /** False leaves request bodies to the HTTP server's own parsers (Nest adds JSON and urlencoded). */
  readonly bodyParser?: boolean;
  /** Anything the app needs before it listens (static assets, the HTTP server's error handler). */
  readonly configure?: (app: INestApplication, config: C) => void | Promise<void>;
  /** The JetStream transport, for services that consume events or answer RPCs. */
  readonly transport?: Type<CustomTransportStrategy>;
}

/**
 * Starts a service: config, then the HTTP endpoints (so that /health/live answers
 * while dependencies are still connecting), then the NATS consumers and RPCs.
 * SIGTERM/SIGINT drain in-flight work before the process exits, within SHUTDOWN_GRACE_MS.
 */
export async function runService<C extends ShutdownConfig>(
  definition: ServiceDefinition<C>,
): Promise<INestApplication> {
  let config: C;
  try {
    config = definition.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      writeFatal(definition.name, error.message, { problems: error.problems });
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const options = { bufferLogs: true, bodyParser: definition.bodyParser ?? true };
  const module = definition.module(config);
  const app = definition.httpAdapter
    ? await NestFactory.create(module, definition.httpAdapter(config), options)
    : await NestFactory.create(module, options);
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.flushLogs();
  // Registered before Nest's own listener, so the budget has begun when its hooks run.
  const budget = app.get(ShutdownBudget);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => stopWithin(definition.name, budget, config.SHUTDOWN_GRACE_MS));
  }
  // Exit 0 once drained; Nest's default re-raises the signal (exit 143).
  app.enableShutdownHooks([], { useProcessExit: true });
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

  if (definition.transport) {
    app.connectMicroservice({ strategy: app.get(definition.transport) }, { inheritAppConfig: true });
  }
  await definition.configure?.(app, config);
  const { port = DEFAULT_HTTP_PORTS[definition.name], host } = definition.http(config);
  await app.listen(port, host);
  await app.startAllMicroservices();
  logger.log(`${definition.name} started; HTTP on ${host}:${port}`);
  return app;
}

/**
 * Begins the shutdown's budget, and ends the process when the grace is over even if a step
 * still waits (a hook that does not use the budget, a pool waiting for a query Postgres holds).
 */
function stopWithin(service: ServiceName, budget: ShutdownBudget, graceMs: number): void {
  budget.begin(graceMs);
  setTimeout(() => {
    writeFatal(
      service,
      `shutdown did not finish within SHUTDOWN_GRACE_MS (${graceMs} ms); exiting anyway`,
      {},
    );
    process.exit(1);
  }, graceMs).unref();
}

/** For main.ts: a service that cannot start says why, as one JSON log line, and exits non-zero. */
export function exitOnStartupFailure(service: ServiceName) {
  return (error: unknown): never => {
    writeFatal(service, error instanceof Error ? error.message : String(error), {
      stack: error instanceof Error ? error.stack : undefined,
    });
    process.exit(1);
  };
}

function writeFatal(service: string, message: string, extra: Record<string, unknown>): void {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), service, pid: process.pid, message, ...extra })}\n`,
  );
}
