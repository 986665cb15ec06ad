import { Injectable } from '@nestjs/common';
import type { SkillDefinition } from '@engram/context';
import type { EntityManager } from '@engram/store';

/** An agent's skills (table skills), upserted by skill name, in the caller's tenant transaction. */
@Injectable()
export class SkillsRepository {
  /** Inserts or replaces the skills; an unchanged skill keeps its updated_at. */
  async put(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    skills: readonly SkillDefinition[],
  ): Promise<void> {
    // One statement per skill: keyword and pattern lists differ in length (no unnest of text[][]).
    for (const skill of skills) {
      await manager.query(
        `INSERT INTO skills AS s (tenant_id, agent, name, description, keywords, patterns, body, source)
         VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7, $8)
         ON CONFLICT (tenant_id, agent, name) DO UPDATE
            SET description = EXCLUDED.description, keywords = EXCLUDED.keywords, patterns = EXCLUDED.patterns,
                body = EXCLUDED.body, source = EXCLUDED.source, updated_at = now()
          WHERE (s.description, s.keywords, s.patterns, s.body, s.source)
                IS DISTINCT FROM (EXCLUDED.description, EXCLUDED.keywords, EXCLUDED.patterns, EXCLUDED.body, EXCLUDED.source)`,
        [
          tenantId,
          agent,
          skill.name,
          skill.description,
          skill.keywords,
          skill.patterns,
          skill.body,
          skill.source,
        ],
      );
    }
  }
}
