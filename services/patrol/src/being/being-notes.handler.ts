import { Controller } from '@nestjs/common';
import {
  Rpcs,
  timestampDate,
  type AddNoteRequest,
  type AddSceneRequest,
  type AddSceneResponseSchema,
  type ListNotesRequest,
  type ListNotesResponseSchema,
  type MarkNotesReadRequest,
  type MarkNotesReadResponseSchema,
  type MessageInitShape,
  type NoteKind,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { toBeingNote, type BeingNoteInit } from './being-note';
import { BeingNotesRepository } from './being-notes.repository';
import { sceneNoteOf } from './scene-notes';

/** Notes a list answers when the request names no limit. */
export const DEFAULT_NOTES_LIMIT = 100;

/**
 * mem.rpc.being.scene.add, .note.add, .notes.list and .notes.read (each .{tenant}): what a
 * being writes down between patrols, and which of its notes it has read.
 */
@Controller()
export class BeingNotesHandler {
  constructor(private readonly notes: BeingNotesRepository) {}

  @HandleRpc(Rpcs.beingSceneAdd)
  async addScene(
    request: AddSceneRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof AddSceneResponseSchema>> {
    const note = sceneNoteOf(request);
    const noteId = await this.notes.addScene(ctx.tenantId, request.agent, note);
    return { noteId, parseFailed: note.parseFailed, problems: [...note.problems] };
  }

  @HandleRpc(Rpcs.beingNoteAdd)
  async addNote(request: AddNoteRequest, ctx: RpcCallContext): Promise<BeingNoteInit> {
    const row = await this.notes.add(ctx.tenantId, request.agent, {
      kind: (request.kind || 'note') as Exclude<NoteKind, 'scene'>,
      content: request.content,
      dueAt: request.dueAt ? timestampDate(request.dueAt) : null,
    });
    return toBeingNote(row);
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
    return { marked: await this.notes.markRead(ctx.tenantId, request.agent, request.noteIds) };
  }
}
