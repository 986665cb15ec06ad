import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { serviceInbox } from '@engram/contracts';
import { ReadinessRegistry, ShutdownBudget } from '@engram/platform';
import { MESSAGING_OPTIONS, type MessagingOptions } from '../messaging.options';

export interface NatsHandles {
  readonly connection: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
}

/**
 * The process's one NATS connection. It connects in the background and retries
 * forever, so a service starts (and answers /health/live) while NATS is down,
 * and reports ready only once connected.
 */
@Injectable()
export class NatsClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(NatsClient.name);
  private handles?: Promise<NatsHandles>;
  private connection?: NatsConnection;
  private current?: NatsHandles;
  private reachable = false;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly readiness: ReadinessRegistry,
    private readonly shutdown: ShutdownBudget,
  ) {}

  onModuleInit(): void {
    this.readiness.register({
      name: 'nats',
      check: async () => {
        const nc = this.connection;
        if (!nc || nc.isClosed()) throw new Error('not connected to NATS');
        const rtt = await nc.rtt();
        return { server: nc.getServer(), rttMs: rtt };
      },
    });
    void this.connected().catch(() => undefined);
  }

  /** The handles while the connection is up (not connecting, reconnecting or closed); null otherwise. */
  ifConnected(): NatsHandles | null {
    return this.reachable && this.current && !this.current.connection.isClosed() ? this.current : null;
  }

  /** Resolves once connected (first call starts connecting). */
  connected(): Promise<NatsHandles> {
    this.handles ??= this.connect();
    return this.handles;
  }

  private async connect(): Promise<NatsHandles> {
    const connection = await connect({
      servers: this.options.natsUrl.split(',').map((s) => s.trim()),
      name: `engram-${this.options.service}-${process.pid}`,
      ...this.options.natsCredentials,
      // Replies to this service's requests come under its own prefix: on an authenticated NATS it
      // may subscribe to nothing else (servicePermissions in libs/contracts).
      inboxPrefix: serviceInbox(this.options.service),
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      // Otherwise every request (each JetStream publish) builds two Error objects with
      // stack traces up front, in case it times out: ~6 % of ingest's CPU. Timeouts still
      // fail with their own error, just without the stack of the call that started them.
      noAsyncTraces: true,
    });
    this.connection = connection;
    this.logger.log(`connected to NATS ${connection.getServer()}`);
    void this.watch(connection);
    this.current = { connection, js: jetstream(connection), jsm: await jetstreamManager(connection) };
    this.reachable = true;
    return this.current;
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        this.reachable = status.type === 'reconnect';
        this.logger.warn(`NATS ${status.type}: ${'server' in status ? String(status.server) : ''}`);
      }
    }
  }

  /**
   * Runs after the transport stopped its consumers: flushes what is buffered, then closes.
   * A drain waits for the server's answer, which never comes while NATS is gone: without a
   * server there is nothing to flush, and a drain that outlasts the budget is given up.
   */
  async onApplicationShutdown(): Promise<void> {
    const connection = this.connection;
    if (!connection || connection.isClosed()) return;
    const drained =
      this.reachable && (await this.shutdown.within('draining the NATS connection', connection.drain()));
    if (!drained || !connection.isClosed()) {
      await this.shutdown.within('closing the NATS connection', connection.close());
    }
  }
}
