import { Injectable } from '@nestjs/common';
import type { RedriveDeadLetterRequest } from '@engram/contracts';
import { DeadLetterBox } from '@engram/messaging';

/** mem.rpc.deadletters.redrive: publishes a dead letter of the tenant again, to its original subject, once. */
@Injectable()
export class RedriveDeadLetterUseCase {
  constructor(private readonly box: DeadLetterBox) {}

  redrive(
    tenantId: string,
    request: RedriveDeadLetterRequest,
  ): Promise<{ subject: string; sequence: bigint }> {
    return this.box.redrive(tenantId, request.sequence);
  }
}
