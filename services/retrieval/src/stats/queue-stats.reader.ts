import { Injectable, Logger } from '@nestjs/common';
import { NatsClient, readQueueStatusWithin, type QueueReport } from '@engram/messaging';

/** How long stats wait for JetStream before answering without queues. */
export const QUEUE_STATS_TIMEOUT_MS = 1000;

/**
 * The workers' queues as JetStream reports them. Stats are about the tenant's memory
 * first: when JetStream cannot answer (not enabled, unreachable, too slow), the report
 * is empty and the reason logged, rather than failing the whole answer.
 */
@Injectable()
export class QueueStatsReader {
  private readonly logger = new Logger(QueueStatsReader.name);

  constructor(private readonly nats: NatsClient) {}

  async read(): Promise<QueueReport> {
    return readQueueStatusWithin(this.nats, QUEUE_STATS_TIMEOUT_MS, (message) => this.logger.warn(message));
  }
}
