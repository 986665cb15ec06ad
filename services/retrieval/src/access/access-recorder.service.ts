import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Events, timestampFromDate } from '@engram/contracts';
import { errorMessage, EventPublisher } from '@engram/messaging';

/**
 * Announces what a search returned, without making the search wait: the statistics
 * are bumped by the access consumer. A lost announcement costs a little freshness,
 * never an answer.
 */
@Injectable()
export class AccessRecorder {
  private readonly logger = new Logger('AccessRecorder');

  constructor(private readonly events: EventPublisher) {}

  record(tenantId: string, refs: string[], at: Date): void {
    if (refs.length === 0) return;
    const eventId = randomUUID();
    this.events
      .publish(
        Events.accessRecorded,
        tenantId,
        { tenantId, refs, accessedAt: timestampFromDate(at), eventId },
        { msgId: `access:${eventId}` },
      )
      .catch((error: unknown) =>
        this.logger.warn(`access of ${refs.length} items not recorded: ${errorMessage(error)}`),
      );
  }
}
