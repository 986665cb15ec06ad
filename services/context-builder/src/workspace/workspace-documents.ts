import { workspaceDocumentKind, workspaceSkipReason, type WorkspaceDocumentKind } from '@engram/context';
import type { PutWorkspaceRequest } from '@engram/contracts';
import { RequestChecks } from '../agents/request-checks';

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
 * Checks a mem.rpc.workspace.put request (agent token; every name given, each content at
 * most 1 MB; no document twice) and sorts its documents into workspace files to store and
 * other files to skip, each with the reason.
 */
export function workspaceWrite(request: PutWorkspaceRequest): WorkspaceWrite {
  const checks = new RequestChecks('workspace put');
  checks.agent(request.agent);
  checks.count('documents', request.documents.length);
  const documents: WorkspaceDocumentRecord[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  const given = new Map<string, string>();
  request.documents.forEach((document, i) => {
    checks.fileName(`documents[${i}].name`, document.name);
    checks.text(`documents[${i}].content`, document.content);
    const known = workspaceDocumentKind(document.name);
    if (!known) {
      skipped.push({ name: document.name, reason: workspaceSkipReason(document.name) });
      return;
    }
    const earlier = given.get(known.name);
    if (earlier !== undefined)
      checks.problem(`documents[${i}].name`, `${document.name} and ${earlier} are both ${known.name}`);
    given.set(known.name, document.name);
    documents.push({ ...known, content: document.content });
  });
  checks.done();
  return { agent: request.agent, documents, skipped };
}
