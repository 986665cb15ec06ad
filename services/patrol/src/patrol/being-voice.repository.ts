import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';
import type { BeingVoice } from './model-answers';

/** The being's name (its profile), personality and voice (its soul, else its profile). */
@Injectable()
export class BeingVoiceRepository {
  async voiceOf(manager: EntityManager, agent: string): Promise<BeingVoice & { model: string | null }> {
    const [row]: Array<{
      name: string | null;
      personality: string | null;
      voice: string | null;
      model: string | null;
    }> = await manager.query(
      `SELECT a.name, coalesce(nullif(s.personality, ''), a.personality) AS personality, nullif(s.voice, '') AS voice, a.model
         FROM (SELECT $1::text AS agent) b
         LEFT JOIN agents a ON a.agent = b.agent
         LEFT JOIN souls s ON s.agent = b.agent`,
      [agent],
    );
    return {
      ...(row?.name && { name: row.name }),
      ...(row?.personality && { personality: row.personality }),
      ...(row?.voice && { voice: row.voice }),
      model: row?.model ?? null,
    };
  }
}
