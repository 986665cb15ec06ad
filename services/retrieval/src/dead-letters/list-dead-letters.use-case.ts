import { Injectable } from '@nestjs/common';
import {
  DEFAULT_DEAD_LETTERS,
  type ListDeadLettersRequest,
  type ListDeadLettersResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { DeadLetterBox } from '@engram/messaging';

/** mem.rpc.deadletters.list: the tenant's dead letters, newest first, each with why it was given up on. */
@Injectable()
export class ListDeadLettersUseCase {
  constructor(private readonly box: DeadLetterBox) {}

  async list(
    tenantId: string,
    request: ListDeadLettersRequest,
  ): Promise<MessageInitShape<typeof ListDeadLettersResponseSchema>> {
    const listed = await this.box.list(tenantId, request.limit || DEFAULT_DEAD_LETTERS);
    return {
      letters: listed.map(({ sequence, letter, payload }) => ({
        sequence,
        stream: letter.stream,
        consumer: letter.consumer,
        originalSubject: letter.originalSubject,
        cause: letter.cause,
        reason: letter.reason,
        deliveries: letter.deliveries,
        deadAt: letter.deadAt,
        payload,
        details: letter.details,
      })),
    };
  }
}
