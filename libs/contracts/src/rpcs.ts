import type { DescMessage } from '@bufbuild/protobuf';
import {
  BrowseRequestSchema,
  BrowseResponseSchema,
  ForgetRequestSchema,
  ForgetResponseSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  SaveRequestSchema,
  SaveResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  StatsRequestSchema,
  StatsResponseSchema,
} from './gen/memory/v1/retrieval_pb';
import { ContextBuildRequestSchema, ContextBuildResponseSchema } from './gen/memory/v1/context_pb';
import {
  AgentProfileSchema,
  GetAgentRequestSchema,
  PutAgentRequestSchema,
  PutSkillsRequestSchema,
  PutSkillsResponseSchema,
  PutWorkspaceRequestSchema,
  PutWorkspaceResponseSchema,
} from './gen/memory/v1/agents_pb';
import {
  CompleteRequestSchema,
  CompleteResponseSchema,
  EmbedRequestSchema,
  EmbedResponseSchema,
  ListModelsRequestSchema,
  ListModelsResponseSchema,
  SetTenantKeyRequestSchema,
  SetTenantKeyResponseSchema,
} from './gen/memory/v1/gerty_pb';
import {
  GetTenantSettingsRequestSchema,
  SetTenantSettingsRequestSchema,
  TenantSettingsSchema,
} from './gen/memory/v1/tenant_pb';
import type { RequestRules } from './requests/request-rules';
import {
  browseRules,
  forgetRules,
  recallRules,
  saveRules,
  searchRules,
  statsRules,
} from './requests/memory.rules';
import { contextBuildRules } from './requests/context.rules';
import { agentGetRules, agentPutRules, skillPutRules, workspacePutRules } from './requests/agents.rules';
import { tenantSettingsGetRules, tenantSettingsSetRules } from './requests/tenant.rules';
import { completeRules, embedRules, listModelsRules, setTenantKeyRules } from './requests/gerty.rules';

/**
 * A request/reply RPC over core NATS. Tenant-scoped RPCs are requested on
 * `<subject>.<tenant>`, so NATS permissions can confine a runtime to its tenant.
 */
export interface RpcSpec<Req extends DescMessage = DescMessage, Res extends DescMessage = DescMessage> {
  readonly subject: string;
  readonly tenantScoped: boolean;
  readonly request: Req;
  readonly response: Res;
  /** What a valid request is, field by field: checked before any handler runs (see checkRequest). */
  readonly rules: RequestRules<Req>;
}

/** An RPC; its rules are required, so an RPC without them does not compile. */
function rpc<Req extends DescMessage, Res extends DescMessage>(
  subject: string,
  request: Req,
  response: Res,
  rules: NoInfer<RequestRules<Req>>,
  tenantScoped = true,
): RpcSpec<Req, Res> {
  return { subject, request, response, rules, tenantScoped };
}

export const Rpcs = {
  search: rpc('mem.rpc.search', SearchRequestSchema, SearchResponseSchema, searchRules),
  browse: rpc('mem.rpc.browse', BrowseRequestSchema, BrowseResponseSchema, browseRules),
  stats: rpc('mem.rpc.stats', StatsRequestSchema, StatsResponseSchema, statsRules),
  recall: rpc('mem.rpc.recall', RecallRequestSchema, RecallResponseSchema, recallRules),
  save: rpc('mem.rpc.save', SaveRequestSchema, SaveResponseSchema, saveRules),
  forget: rpc('mem.rpc.forget', ForgetRequestSchema, ForgetResponseSchema, forgetRules),
  contextBuild: rpc(
    'mem.rpc.context.build',
    ContextBuildRequestSchema,
    ContextBuildResponseSchema,
    contextBuildRules,
  ),
  agentPut: rpc('mem.rpc.agent.put', PutAgentRequestSchema, AgentProfileSchema, agentPutRules),
  agentGet: rpc('mem.rpc.agent.get', GetAgentRequestSchema, AgentProfileSchema, agentGetRules),
  workspacePut: rpc(
    'mem.rpc.workspace.put',
    PutWorkspaceRequestSchema,
    PutWorkspaceResponseSchema,
    workspacePutRules,
  ),
  skillPut: rpc('mem.rpc.skill.put', PutSkillsRequestSchema, PutSkillsResponseSchema, skillPutRules),
  tenantSettingsGet: rpc(
    'mem.rpc.tenant.settings.get',
    GetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsGetRules,
  ),
  tenantSettingsSet: rpc(
    'mem.rpc.tenant.settings.set',
    SetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsSetRules,
  ),
  gertyEmbed: rpc('gerty.rpc.embed', EmbedRequestSchema, EmbedResponseSchema, embedRules, false),
  gertyComplete: rpc(
    'gerty.rpc.complete',
    CompleteRequestSchema,
    CompleteResponseSchema,
    completeRules,
    false,
  ),
  gertyModels: rpc(
    'gerty.rpc.models',
    ListModelsRequestSchema,
    ListModelsResponseSchema,
    listModelsRules,
    false,
  ),
  gertySetTenantKey: rpc(
    'gerty.rpc.keys.set',
    SetTenantKeyRequestSchema,
    SetTenantKeyResponseSchema,
    setTenantKeyRules,
  ),
} as const;

/** The subject a client requests: `<subject>.<tenant>` for tenant-scoped RPCs. */
export function rpcSubject(spec: RpcSpec, tenantId?: string): string {
  if (!spec.tenantScoped) return spec.subject;
  if (!tenantId) throw new Error(`${spec.subject} is tenant-scoped: a tenant id is required`);
  return `${spec.subject}.${tenantId}`;
}

/** The subject a server subscribes to. */
export function rpcSubscription(spec: RpcSpec): string {
  return spec.tenantScoped ? `${spec.subject}.*` : spec.subject;
}

/** Canonical error codes of RpcError.code, with the NATS micro status each maps to. */
export const RpcErrorCodes = {
  INVALID_ARGUMENT: 400,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 412,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;

export type RpcErrorCode = keyof typeof RpcErrorCodes;
