import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type AddNoteRequest,
  type AddSceneRequest,
  type AddSceneResponseSchema,
  type ListNotesRequest,
  type ListNotesResponseSchema,
  type MarkNotesReadRequest,
  type MarkNotesReadResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { toBeingNote, type BeingNoteInit } from './being-note';
import { BeingNotesRepository } from './being-notes.repository';
import { AddNoteUseCase } from './add-note.use-case';
import { AddSceneUseCase } from './add-scene.use-case';
import { ReadNotesUseCase } from './read-notes.use-case';

/** Notes a list answers when the request names no limit. */
export const DEFAULT_NOTES_LIMIT = 100;

/**
 * mem.rpc.being.scenes.add, .note.add, .notes.list and .notes.read (each .{tenant}): what a
 * being writes down between patrols, and which of its notes it has read.
 */
@Controller()
export class BeingNotesHandler {
  constructor(
    private readonly scenes: AddSceneUseCase,
    private readonly newNotes: AddNoteUseCase,
    private readonly reads: ReadNotesUseCase,
    private readonly notes: BeingNotesRepository,
  ) {}

  @HandleRpc(Rpcs.beingScenesAdd)
  async addScene(
    request: AddSceneRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof AddSceneResponseSchema>> {
    const { note, noteId } = await this.scenes.add(ctx.tenantId, request);
    return { noteId, parseFailed: note.parseFailed, problems: [...note.problems] };
  }

  @HandleRpc(Rpcs.beingNotesAdd)
  async addNote(request: AddNoteRequest, ctx: RpcCallContext): Promise<BeingNoteInit> {
    return toBeingNote(await this.newNotes.add(ctx.tenantId, request));
  }

  @HandleRpc(Rpcs.beingNotesList)
  async list(
    request: ListNotesRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof ListNotesResponseSchema>> {
    const rows = await this.notes.list(ctx.tenantId, request.agent, {
      kinds: request.kinds,
      unreadOnly: request.unreadOnly,
      limit: request.limit || DEFAULT_NOTES_LIMIT,
    });
    return { notes: rows.map(toBeingNote) };
  }

  @HandleRpc(Rpcs.beingNotesRead)
  async markRead(
    request: MarkNotesReadRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof MarkNotesReadResponseSchema>> {
    return { marked: await this.reads.read(ctx.tenantId, request) };
  }
}
