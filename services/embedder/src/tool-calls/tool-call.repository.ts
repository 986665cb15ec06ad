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
  async find(manager: EntityManager, messageId: string): Promise<StoredToolCall | null> {
    const rows: Array<{ id: string; content: string; tool_name: string | null; tool_args: unknown }> = await manager.query(
      `SELECT id, content, tool_name, tool_args FROM messages WHERE id = $1`,
      [messageId],
    );
    const row = rows[0];
    return row ? { id: String(row.id), content: row.content, toolName: row.tool_name, toolArgs: row.tool_args } : null;
  }

  /** Writes the description once: only into empty content, marked synthesised (the call's own fields stay). */
  async writeDescription(manager: EntityManager, messageId: string, description: string): Promise<void> {
    await manager.query(
      `UPDATE messages SET content = $2, content_synthesised = true WHERE id = $1 AND content = ''`,
      [messageId, description],
    );
  }
}
