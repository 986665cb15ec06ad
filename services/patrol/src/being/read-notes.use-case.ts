import { Injectable } from '@nestjs/common';
import type { MarkNotesReadRequest } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { BeingNotesRepository } from './being-notes.repository';

/** mem.rpc.being.notes.read: marks the being's unread notes among those named read; answers how many were unread. */
@Injectable()
export class ReadNotesUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly notes: BeingNotesRepository,
  ) {}

  read(tenantId: string, request: MarkNotesReadRequest): Promise<number> {
    return this.transactions.run(tenantId, (m) => this.notes.markRead(m, request.agent, request.noteIds));
  }
}
