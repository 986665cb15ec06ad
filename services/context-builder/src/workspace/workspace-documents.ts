import {
  workspaceDocumentKind,
  workspaceSkipReason,
  type PutWorkspaceRequest,
  type WorkspaceDocumentKind,
} from '@engram/contracts';

export interface WorkspaceDocumentRecord {
  /** The name it is stored under (daily notes as memory/YYYY-MM-DD.md). */
  readonly name: string;
  readonly kind: WorkspaceDocumentKind;
  readonly day: string | null;
  readonly content: string;
}

export interface WorkspaceWrite {
  readonly agent: string;
  readonly documents: WorkspaceDocumentRecord[];
  readonly skipped: Array<{ name: string; reason: string }>;
}

/**
 * Sorts the documents of a mem.rpc.workspace.put request (which passed its rules,
 * libs/contracts workspacePutRules: no document twice) into workspace files to store and
 * other files to skip, each with the reason.
 */
export function workspaceWrite(request: PutWorkspaceRequest): WorkspaceWrite {
  const documents: WorkspaceDocumentRecord[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  for (const document of request.documents) {
    const known = workspaceDocumentKind(document.name);
    if (known) documents.push({ ...known, content: document.content });
    else skipped.push({ name: document.name, reason: workspaceSkipReason(document.name) });
  }
  return { agent: request.agent, documents, skipped };
}
