import { Injectable } from '@nestjs/common';
import { timestampDate, type AddNoteRequest, type NoteKind } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import type { StoredNote } from './being-note';
import { BeingNotesRepository } from './being-notes.repository';

/**
 * mem.rpc.being.notes.add: a note, TODO, reminder or piece of knowledge of the being (a note when
 * the kind is not said), stored in a tenant transaction that first makes the agent a being.
 */
@Injectable()
export class AddNoteUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly notes: BeingNotesRepository,
  ) {}

  add(tenantId: string, request: AddNoteRequest): Promise<StoredNote> {
    return this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.notes.add(m, tenantId, request.agent, {
        kind: (request.kind || 'note') as Exclude<NoteKind, 'scene'>,
        content: request.content,
        dueAt: request.dueAt ? timestampDate(request.dueAt) : null,
      });
    });
  }
}
