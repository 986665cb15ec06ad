import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';
import type { WorkspaceDocumentRecord } from './workspace-documents';

/** An agent's workspace documents (table workspace_documents), upserted by name, in the caller's tenant transaction. */
@Injectable()
export class WorkspaceRepository {
  /**
   * Inserts or replaces the documents; a document whose content is unchanged keeps its
   * updated_at (an import run again changes nothing).
   */
  async put(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    documents: readonly WorkspaceDocumentRecord[],
  ): Promise<void> {
    await manager.query(
      `INSERT INTO workspace_documents AS w (tenant_id, agent, name, kind, day, content)
       SELECT $1, $2, d.name, d.kind, d.day, d.content
         FROM unnest($3::text[], $4::text[], $5::date[], $6::text[]) AS d (name, kind, day, content)
       ON CONFLICT (tenant_id, agent, name) DO UPDATE
          SET kind = EXCLUDED.kind, day = EXCLUDED.day, content = EXCLUDED.content, updated_at = now()
        WHERE (w.kind, w.day, w.content) IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.day, EXCLUDED.content)`,
      [
        tenantId,
        agent,
        documents.map((d) => d.name),
        documents.map((d) => d.kind),
        documents.map((d) => d.day),
        documents.map((d) => d.content),
      ],
    );
  }
}
