import { Injectable } from '@nestjs/common';
import type { AddSceneRequest } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { BeingNotesRepository } from './being-notes.repository';
import { sceneNoteOf, type SceneNoteRecord } from './scene-notes';

/**
 * mem.rpc.being.scenes.add: a scene the being writes down for the patrol, stored parsed or not
 * (with its problems) in a tenant transaction that first makes the agent a being.
 */
@Injectable()
export class AddSceneUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly notes: BeingNotesRepository,
  ) {}

  /** The scene note as parsed, and its id. */
  async add(
    tenantId: string,
    request: AddSceneRequest,
  ): Promise<{ readonly note: SceneNoteRecord; readonly noteId: string }> {
    const note = sceneNoteOf(request);
    const noteId = await this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.notes.addScene(m, tenantId, request.agent, note);
    });
    return { note, noteId };
  }
}
