import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

export interface StoredToolCall {
  readonly id: string;
  readonly content: string;
  readonly toolName: string | null;
  readonly toolArgs: unknown;
}

@Injectable()
export class ToolCallRepository {
  async find(manager: EntityManager, messageIds: readonly string[]): Promise<StoredToolCall[]> {
    const rows: Array<{ id: string; content: string; tool_name: string | null; tool_args: unknown }> =
      await manager.query(
        `SELECT id, content, tool_name, tool_args FROM messages WHERE id = ANY($1::bigint[])`,
        [messageIds],
      );
    return rows.map((row) => ({
      id: String(row.id),
      content: row.content,
      toolName: row.tool_name,
      toolArgs: row.tool_args,
    }));
  }

  /** Writes each description once: only into empty content, marked synthesised (the call's own fields stay). */
  async writeDescriptions(
    manager: EntityManager,
    descriptions: ReadonlyArray<{ id: string; text: string }>,
  ): Promise<void> {
    if (descriptions.length === 0) return;
    await manager.query(
      `UPDATE messages m SET content = d.text, content_synthesised = true
         FROM unnest($1::bigint[], $2::text[]) AS d(id, text)
        WHERE m.id = d.id AND m.content = ''`,
      [descriptions.map((d) => d.id), descriptions.map((d) => d.text)],
    );
  }
}
