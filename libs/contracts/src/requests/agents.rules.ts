import type { JsonObject } from '@bufbuild/protobuf';
import { z } from 'zod';
import type {
  GetAgentRequestSchema,
  PutAgentRequestSchema,
  PutSkillsRequestSchema,
  PutWorkspaceRequestSchema,
} from '../gen/memory/v1/agents_pb';
import { isValidToken } from '../subjects';
import { workspaceDocumentKind } from '../values/workspace-files';
import { fileList, fileName, quoted, text, textProblem, token } from './field-rules';
import { given, rule, type RequestRules } from './request-rules';

/** The rules of context-builder's agent RPCs (mem.rpc.agents.{put,get}, workspace.put, skills.put). */

export const agentPutRules = z.object({
  agent: token(),
  name: text().optional(),
  personality: text().optional(),
  job: text().optional(),
  userName: text().optional(),
  model: text().optional(),
  // Tool names are function names: the token rule too, after trimming.
  tools: rule(z.array(z.string()), (tools) => {
    const bad = [...new Set(tools.map((t) => t.trim()))].filter((t) => !isValidToken(t));
    return bad.length === 0
      ? undefined
      : `tool names must be 1-64 letters, digits, "_" or "-": ${bad.slice(0, 5).map(quoted).join(', ')}`;
  }),
  settings: rule(given<JsonObject>(), (settings, field) =>
    textProblem(JSON.stringify(settings ?? {}), field),
  ),
}) satisfies RequestRules<typeof PutAgentRequestSchema>;

export const agentGetRules = z.object({ agent: token() }) satisfies RequestRules<
  typeof GetAgentRequestSchema
>;

export const workspacePutRules = z
  .object({
    agent: token(),
    documents: fileList(z.object({ name: fileName(), content: text() })),
  })
  .superRefine((request, ctx) => {
    // Two names for one workspace document (2026-11-22.md and memory/2026-11-22.md): which one wins is anyone's guess.
    const named = new Map<string, string>();
    request.documents.forEach((document, i) => {
      const known = workspaceDocumentKind(document.name);
      if (!known) return;
      const earlier = named.get(known.name);
      if (earlier !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['documents', i, 'name'],
          message: `${document.name} and ${earlier} are both ${known.name}`,
        });
      named.set(known.name, document.name);
    });
  }) satisfies RequestRules<typeof PutWorkspaceRequestSchema>;

export const skillPutRules = z.object({
  agent: token(),
  files: fileList(z.object({ name: fileName(), markdown: text() })),
}) satisfies RequestRules<typeof PutSkillsRequestSchema>;
