import { Injectable } from '@nestjs/common';
import { SCENE_TASK_LIMITS } from '@engram/prompts';
import type { AgentRow, EntityManager } from '@engram/store';
import type { BeingVoice } from './model-answers';

const clip = (text: string, max: number) => text.slice(0, max);

/** The being's name (its profile), personality and voice (its soul, else its profile), within the tasks' bounds. */
@Injectable()
export class BeingVoiceRepository {
  async voiceOf(manager: EntityManager, agent: string): Promise<BeingVoice & { model: string | null }> {
    // agents and souls LEFT JOINed: the soul's personality or the profile's, and its voice, or null.
    const [row]: Array<
      Pick<AgentRow, 'name' | 'model'> & {
        readonly personality: string | null;
        readonly voice: string | null;
      }
    > = await manager.query(
      `SELECT a.name, coalesce(nullif(s.personality, ''), a.personality) AS personality, nullif(s.voice, '') AS voice, a.model
         FROM (SELECT $1::text AS agent) b
         LEFT JOIN agents a ON a.agent = b.agent
         LEFT JOIN souls s ON s.agent = b.agent`,
      [agent],
    );
    return {
      ...(row?.name && { name: clip(row.name, SCENE_TASK_LIMITS.nameChars) }),
      ...(row?.personality && { personality: clip(row.personality, SCENE_TASK_LIMITS.personalityChars) }),
      ...(row?.voice && { voice: clip(row.voice, SCENE_TASK_LIMITS.voiceChars) }),
      model: row?.model ?? null,
    };
  }
}
