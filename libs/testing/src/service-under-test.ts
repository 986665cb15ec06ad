import type { DynamicModule, INestApplication, InjectionToken, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import type { ServiceName } from '@engram/config';
import { listenOnJetStream, RpcClient } from '@engram/messaging';
import { ADMIN_USER } from '@engram/contracts';
import { prepareNatsAuthentication, type NatsAuthentication } from './nats-authentication';
import { startNatsServer, type NatsServerHandle } from './nats-server';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';
import { startService, type ServiceProcess } from './service-process';

/** A service as its own process (services/<name>/dist: build first), with environment of its own. */
export type ProcessSpec = ServiceName | { readonly name: ServiceName; readonly env: Record<string, string> };

export interface TestEnvironmentOptions {
  /** Names the scratch database. */
  readonly label: string;
  /** Runs as a superuser before any service starts, so what it seeds is there from the first message. */
  readonly seed?: (admin: Client) => Promise<void>;
  /** Services as processes on the suite's NATS and database, ready before the call returns. */
  readonly processes?: readonly ProcessSpec[];
  /** How long the processes may take to be ready (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** A configuration file for the suite's nats-server (deploy/nats/engram.conf: the partition mappings). */
  readonly natsConfigFile?: string;
  /**
   * NATS with authentication instead (deploy/nats/engram-auth.conf, generated): every process as its
   * service's user, the test's own connection as `admin`, and a runtime account for each tenant given.
   */
  readonly natsAuthentication?: { readonly runtimes: readonly string[] };
}

/** A private nats-server and scratch database, the test's own connections to them, and services as processes. */
export interface TestEnvironment {
  readonly nats: NatsServerHandle;
  readonly db: ScratchDatabase;
  /** NATS_URL and DATABASE_URL (the app role): what a service the test starts itself needs. */
  readonly env: Readonly<Record<'NATS_URL' | 'DATABASE_URL', string>>;
  /** The users' credentials and the runtimes' seeds, with `natsAuthentication`. */
  readonly natsAuth?: NatsAuthentication;
  /** A superuser connection, for seeding and for checks that must see every tenant. */
  readonly admin: Client;
  /** A NATS connection of the test's own (raw requests), and JetStream over it to publish and read events. */
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  /** A service started from `processes` (to kill it, read its output …). */
  process(name: ServiceName): ServiceProcess;
  /** Rows of a query as the superuser. */
  sql<T extends object>(text: string, params?: unknown[]): Promise<T[]>;
  /** The `n` column of the first row, as a number. */
  count(text: string, params?: unknown[]): Promise<number>;
  /** Stops everything it started, the last started first; the database is dropped last. */
  stop(): Promise<void>;
}

/** How to stop each thing started, in the order started; run in reverse, every step even when one fails. */
class Teardown {
  private readonly stops: Array<() => Promise<unknown>> = [];

  add(stop: () => Promise<unknown>): void {
    this.stops.push(stop);
  }

  async run(): Promise<void> {
    const failures: unknown[] = [];
    for (const stop of this.stops.splice(0).reverse()) await stop().catch((error) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, 'stopping the test environment failed');
  }

  /** Runs `start`; when it fails, stops what was started so far and rethrows. */
  async guard<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      await this.run().catch(() => undefined);
      throw error;
    }
  }
}

/** Starts a test environment (nothing in this process): for suites that test services as processes. */
export function startTestEnvironment(options: TestEnvironmentOptions): Promise<TestEnvironment> {
  return startEnvironment(new Teardown(), options);
}

function startEnvironment(teardown: Teardown, options: TestEnvironmentOptions): Promise<TestEnvironment> {
  return teardown.guard(async () => {
    const natsAuth = options.natsAuthentication
      ? prepareNatsAuthentication(options.natsAuthentication.runtimes)
      : undefined;
    if (natsAuth) teardown.add(async () => natsAuth.remove());
    const [nats, db] = await Promise.all([
      startNatsServer(
        natsAuth
          ? { configFile: natsAuth.configFile, env: natsAuth.serverEnv }
          : { configFile: options.natsConfigFile },
      ),
      createScratchDatabase(options.label),
    ]);
    teardown.add(() => db.drop());
    teardown.add(() => nats.stop());
    const admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    teardown.add(() => admin.end());
    await options.seed?.(admin);
    const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl };
    const processes = await startProcesses(teardown, options, env, natsAuth);
    const operator = natsAuth?.credentials(ADMIN_USER);
    const nc = await connect({
      servers: nats.url,
      ...(operator && { user: operator.NATS_USER, pass: operator.NATS_PASSWORD }),
    });
    teardown.add(() => nc.drain());
    const sql = async <T extends object>(text: string, params: unknown[] = []) =>
      (await admin.query(text, params)).rows as T[];
    return {
      nats,
      db,
      env,
      natsAuth,
      admin,
      nc,
      js: jetstream(nc),
      process(name: ServiceName) {
        const found = processes.find((p) => p.name === name);
        if (!found) throw new Error(`${name} was not started as a process of this test environment`);
        return found;
      },
      sql,
      count: async (text: string, params: unknown[] = []) =>
        Number((await sql<{ n: string }>(text, params))[0]!.n),
      stop: () => teardown.run(),
    };
  });
}

async function startProcesses(
  teardown: Teardown,
  options: Pick<TestEnvironmentOptions, 'processes' | 'readyTimeoutMs'>,
  env: Record<string, string>,
  natsAuth: NatsAuthentication | undefined,
): Promise<ServiceProcess[]> {
  const processes: ServiceProcess[] = [];
  for (const spec of options.processes ?? []) {
    const { name, env: own } = typeof spec === 'string' ? { name: spec, env: {} } : spec;
    const service = await startService(name, { ...env, ...natsAuth?.credentials(name), ...own });
    teardown.add(async () => {
      service.kill();
      await service.exited;
    });
    processes.push(service);
  }
  await Promise.all(processes.map((p) => p.waitUntilReady(options.readyTimeoutMs)));
  return processes;
}

/** The service under test, run in the test's process: how it reads its config, and its module from that config. */
export interface InProcessService<C> {
  readonly loadConfig: (env: NodeJS.ProcessEnv) => C;
  readonly module: (config: C) => DynamicModule;
}

export interface ServiceUnderTestOptions<C> extends TestEnvironmentOptions, InProcessService<C> {
  /** Settings over the test defaults (silent logs, retries after 100 to 500 ms). */
  readonly config?: Record<string, string>;
  /** Apps on the same consumers and RPCs, as replicas of the service would be (default and at least 1). */
  readonly replicas?: number;
  /** Providers replaced in every app (e.g. a faster retry schedule). */
  readonly overrides?: ReadonlyArray<{ readonly provide: InjectionToken; readonly useValue: unknown }>;
  /** Where the apps log (default: nowhere). */
  readonly logger?: LoggerService;
}

/** A test environment with the service under test running in this process. */
export interface ServiceUnderTest extends TestEnvironment {
  /** One Nest application per replica, listening on JetStream. */
  readonly apps: INestApplication[];
  /** The first app's RPC client. */
  readonly rpc: RpcClient;
}

/**
 * Starts a service under test: a private nats-server and scratch database, `seed`, the
 * `processes` it talks to (ready), then `replicas` apps of the service in this process,
 * e.g. `startServiceUnderTest({ label: 'search', loadConfig: loadRetrievalConfig,
 * module: (config) => RetrievalModule.register(config), processes: ['gerty'] })`.
 */
export async function startServiceUnderTest<C>(
  options: ServiceUnderTestOptions<C>,
): Promise<ServiceUnderTest> {
  const teardown = new Teardown();
  const environment = await startEnvironment(teardown, options);
  const apps = await teardown.guard(async () => {
    const config = options.loadConfig({
      ...environment.env,
      LOG_LEVEL: 'silent',
      RETRY_BASE_DELAY_MS: '100',
      RETRY_MAX_DELAY_MS: '500',
      ...options.config,
    });
    const apps: INestApplication[] = [];
    for (let i = 0; i < Math.max(1, options.replicas ?? 1); i++) {
      const app = await createApp(options.module(config), options);
      teardown.add(() => app.close());
      apps.push(await listenOnJetStream(app));
    }
    return apps;
  });
  return { ...environment, apps, rpc: apps[0]!.get(RpcClient) };
}

async function createApp(
  module: DynamicModule,
  options: Pick<ServiceUnderTestOptions<unknown>, 'overrides' | 'logger'>,
): Promise<INestApplication> {
  const builder = Test.createTestingModule({ imports: [module] });
  for (const { provide, useValue } of options.overrides ?? [])
    builder.overrideProvider(provide).useValue(useValue);
  const compiled = await builder.compile();
  return compiled.createNestApplication({ logger: options.logger ?? false });
}
