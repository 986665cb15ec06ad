import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  decodeMessage,
  encodeMessage,
  ServiceHeartbeatSchema,
  Subjects,
  SystemHealthSchema,
} from '@engram/contracts';
import {
  errorMessage,
  HealthBook,
  NatsClient,
  readQueueStatusWithin,
  type QueueReport,
} from '@engram/messaging';

/** How long the queues may take before health answers without them. */
const QUEUES_TIMEOUT_MS = 1000;

/**
 * What GET /v1/health shows: every service's replicas from their heartbeats (mem.control.heartbeat.*,
 * heard by this api replica since it started), the workers' queues from JetStream, and the last
 * hour of ingest and vector activity. Over all tenants: it is about the system, not a memory.
 */
@Injectable()
export class SystemHealth implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SystemHealth.name);
  private readonly book = new HealthBook();
  private subscription?: Subscription;

  constructor(private readonly nats: NatsClient) {}

  onApplicationBootstrap(): void {
    // Not awaited: the api serves (and says it is not ready) while NATS is still out of reach.
    void this.nats
      .connected()
      .then(({ connection }) => this.listen(connection))
      .catch((error: unknown) => this.logger.warn(`not listening to heartbeats: ${errorMessage(error)}`));
  }

  private listen(connection: NatsConnection): void {
    this.subscription = connection.subscribe(Subjects.heartbeatWildcard, {
      callback: (error, msg) => {
        if (error) return;
        try {
          this.book.record(decodeMessage(ServiceHeartbeatSchema, msg.data, { strict: false }), Date.now());
        } catch (failure) {
          this.logger.warn(`a heartbeat on ${msg.subject} was not read: ${errorMessage(failure)}`);
        }
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  /** The report, as the protobuf JSON of SystemHealth. */
  async report(): Promise<Uint8Array> {
    const now = Date.now();
    const queues = await this.queues();
    return encodeMessage(SystemHealthSchema, {
      services: this.book.services(now),
      queues: queues.queues.map((q) => ({
        name: q.queue,
        pending: BigInt(q.pending),
        inFlight: BigInt(q.inFlight),
        failed: BigInt(q.failed),
      })),
      deadLetters: BigInt(queues.deadLetters),
      activity: this.book.activity(now),
    });
  }

  private async queues(): Promise<QueueReport> {
    return readQueueStatusWithin(this.nats, QUEUES_TIMEOUT_MS, (message) => this.logger.warn(message));
  }
}
