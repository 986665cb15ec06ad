import type { DescMessage } from '@bufbuild/protobuf';
import {
  BrowseRequestSchema,
  BrowseResponseSchema,
  ForgetRequestSchema,
  ListDeadLettersRequestSchema,
  ListDeadLettersResponseSchema,
  RedriveDeadLetterRequestSchema,
  RedriveDeadLetterResponseSchema,
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
import { EraseRequestSchema, EraseResponseSchema } from './gen/memory/v1/erase_pb';
import {
  FactHistorySchema,
  FactSchema,
  GetFactRequestSchema,
  ListCompactionsRequestSchema,
  ListCompactionsResponseSchema,
  ListAgentsRequestSchema,
  ListAgentsResponseSchema,
  ListConversationsRequestSchema,
  ListConversationsResponseSchema,
  ListFactsRequestSchema,
  ListFactsResponseSchema,
  ListStateRequestSchema,
  ListStateResponseSchema,
  SummaryTreeRequestSchema,
  SummaryTreeResponseSchema,
  UpdateFactRequestSchema,
} from './gen/memory/v1/facts_pb';
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
import {
  AddNoteRequestSchema,
  AddSceneRequestSchema,
  AddSceneResponseSchema,
  BeingNoteSchema,
  BeingRecallRequestSchema,
  BeingRecallResponseSchema,
  BeingSchema,
  GetBeingRequestSchema,
  JournalRequestSchema,
  JournalResponseSchema,
  ListNodesRequestSchema,
  ListNotesRequestSchema,
  ListNotesResponseSchema,
  MarkNotesReadRequestSchema,
  MarkNotesReadResponseSchema,
  NodeHistoryRequestSchema,
  NodeHistoryResponseSchema,
  PartnerRuleSchema,
  PatrolReportSchema,
  PinNodeRequestSchema,
  PreferenceSchema,
  PutPartnerRuleRequestSchema,
  PutPreferenceRequestSchema,
  PutRelationshipRequestSchema,
  PutSoulRequestSchema,
  RecallMemoryRequestSchema,
  RelationshipSchema,
  RunPatrolRequestSchema,
  SceneNodeSchema,
  SceneNodesResponseSchema,
  SearchMemoryRequestSchema,
  SoulSchema,
} from './gen/memory/v1/being_pb';
import type { RequestRules } from './requests/request-rules';
import {
  beingGetRules,
  beingRecallRules,
  journalRules,
  nodeHistoryRules,
  nodePinRules,
  nodesListRules,
  noteAddRules,
  notesListRules,
  notesReadRules,
  partnerRulePutRules,
  patrolRunRules,
  preferencePutRules,
  recallMemoryRules,
  relationshipPutRules,
  sceneAddRules,
  searchMemoryRules,
  soulPutRules,
} from './requests/being.rules';
import type { Announcement, ServiceName } from './topology';
import {
  browseRules,
  forgetRules,
  recallRules,
  saveRules,
  searchRules,
  statsRules,
} from './requests/memory.rules';
import { contextBuildRules } from './requests/context.rules';
import {
  compactionsListRules,
  conversationsListRules,
  factsGetRules,
  factsListRules,
  factsUpdateRules,
  stateListRules,
  summariesTreeRules,
  agentsListRules,
} from './requests/facts.rules';
import { agentGetRules, agentPutRules, skillPutRules, workspacePutRules } from './requests/agents.rules';
import { tenantSettingsGetRules, tenantSettingsSetRules } from './requests/tenant.rules';
import { deadLettersListRules, deadLettersRedriveRules } from './requests/dead-letters.rules';
import { eraseRules } from './requests/erase.rules';
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
  /** The service that answers it (one handler, in services/<owner>). */
  readonly owner: ServiceName;
  /**
   * The services that request it (NATS permissions are generated from this: nats-permissions.ts).
   * Agent runtimes request every tenant-scoped RPC, of their own tenant only.
   */
  readonly callers: readonly ServiceName[];
  /** What its handler announces, in the transaction of its effect. */
  readonly publishes: readonly Announcement[];
  /**
   * Served from per-tenant state held in the owner's memory: nats-server maps its requests
   * onto partitions of the tenants, so each replica answers only some (rpc-partitions.ts).
   */
  readonly partitioned: boolean;
  /**
   * Changes no memory (a search records accesses: statistics), so asking twice is harmless:
   * a client asks again when an answer did not come in time, e.g. its replica died with it.
   */
  readonly readOnly: boolean;
}

interface RpcPlacement {
  readonly owner: ServiceName;
  /** Default: the api edge for a memory RPC (`mem.rpc.*`, every one has a route), no service otherwise. */
  readonly callers?: readonly ServiceName[];
  readonly publishes?: readonly Announcement[];
  /** False for the infrastructure RPCs that serve every tenant (Gerty's embed, complete, models). */
  readonly tenantScoped?: boolean;
  /** True for RPCs answered from per-tenant state in the owner's memory (tenant-scoped only). */
  readonly partitioned?: boolean;
  /** True for RPCs that change no memory (RpcSpec.readOnly). */
  readonly readOnly?: boolean;
}

/** An RPC; its rules are required, so an RPC without them does not compile. */
function rpc<Req extends DescMessage, Res extends DescMessage>(
  subject: string,
  request: Req,
  response: Res,
  rules: NoInfer<RequestRules<Req>>,
  {
    owner,
    callers = subject.startsWith('mem.rpc.') ? ['api'] : [],
    publishes = [],
    tenantScoped = true,
    partitioned = false,
    readOnly = false,
  }: RpcPlacement,
): RpcSpec<Req, Res> {
  if (partitioned && !tenantScoped)
    throw new Error(`${subject}: only a tenant-scoped RPC can be partitioned`);
  return {
    subject,
    request,
    response,
    rules,
    owner,
    callers,
    publishes,
    tenantScoped,
    partitioned,
    readOnly,
  };
}

/** Every service that asks Gerty (through GertyClient: its readiness check lists the models). */
const GERTY_CALLERS: readonly ServiceName[] = ['embedder', 'compactor', 'retrieval', 'patrol', 'api'];

export const Rpcs = {
  search: rpc('mem.rpc.search', SearchRequestSchema, SearchResponseSchema, searchRules, {
    owner: 'retrieval',
    // The context builder searches for the memory blocks of a prompt.
    callers: ['api', 'context-builder'],
    publishes: ['accessRecorded'],
    // Answered from the tenant's in-memory index.
    partitioned: true,
    readOnly: true,
  }),
  browse: rpc('mem.rpc.browse', BrowseRequestSchema, BrowseResponseSchema, browseRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  stats: rpc('mem.rpc.stats', StatsRequestSchema, StatsResponseSchema, statsRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  recall: rpc('mem.rpc.recall', RecallRequestSchema, RecallResponseSchema, recallRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  save: rpc('mem.rpc.save', SaveRequestSchema, SaveResponseSchema, saveRules, {
    owner: 'retrieval',
    publishes: ['factUpserted'],
  }),
  forget: rpc('mem.rpc.forget', ForgetRequestSchema, ForgetResponseSchema, forgetRules, {
    owner: 'retrieval',
    publishes: ['factUpserted'],
  }),
  factsList: rpc('mem.rpc.facts.list', ListFactsRequestSchema, ListFactsResponseSchema, factsListRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  factsGet: rpc('mem.rpc.facts.get', GetFactRequestSchema, FactHistorySchema, factsGetRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  factsUpdate: rpc('mem.rpc.facts.update', UpdateFactRequestSchema, FactSchema, factsUpdateRules, {
    owner: 'retrieval',
    publishes: ['factUpserted'],
  }),
  stateList: rpc('mem.rpc.state.list', ListStateRequestSchema, ListStateResponseSchema, stateListRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  conversationsList: rpc(
    'mem.rpc.conversations.list',
    ListConversationsRequestSchema,
    ListConversationsResponseSchema,
    conversationsListRules,
    { owner: 'retrieval', readOnly: true },
  ),
  summariesTree: rpc(
    'mem.rpc.summaries.tree',
    SummaryTreeRequestSchema,
    SummaryTreeResponseSchema,
    summariesTreeRules,
    { owner: 'retrieval', readOnly: true },
  ),
  compactionsList: rpc(
    'mem.rpc.compactions.list',
    ListCompactionsRequestSchema,
    ListCompactionsResponseSchema,
    compactionsListRules,
    { owner: 'retrieval', readOnly: true },
  ),
  agentsList: rpc('mem.rpc.agents.list', ListAgentsRequestSchema, ListAgentsResponseSchema, agentsListRules, {
    owner: 'retrieval',
    readOnly: true,
  }),
  deadLettersList: rpc(
    'mem.rpc.deadletters.list',
    ListDeadLettersRequestSchema,
    ListDeadLettersResponseSchema,
    deadLettersListRules,
    { owner: 'retrieval', readOnly: true },
  ),
  deadLettersRedrive: rpc(
    'mem.rpc.deadletters.redrive',
    RedriveDeadLetterRequestSchema,
    RedriveDeadLetterResponseSchema,
    deadLettersRedriveRules,
    { owner: 'retrieval' },
  ),
  erase: rpc('mem.rpc.erase', EraseRequestSchema, EraseResponseSchema, eraseRules, {
    // Retrieval owns the reads and the search index the erased rows must leave.
    owner: 'retrieval',
    publishes: ['memoryErased'],
  }),
  contextBuild: rpc(
    'mem.rpc.context.build',
    ContextBuildRequestSchema,
    ContextBuildResponseSchema,
    contextBuildRules,
    // Reads the transcript and memory; its searches record accesses (statistics), as a search's do.
    { owner: 'context-builder', readOnly: true },
  ),
  agentPut: rpc('mem.rpc.agent.put', PutAgentRequestSchema, AgentProfileSchema, agentPutRules, {
    owner: 'context-builder',
  }),
  agentGet: rpc('mem.rpc.agent.get', GetAgentRequestSchema, AgentProfileSchema, agentGetRules, {
    owner: 'context-builder',
    readOnly: true,
  }),
  workspacePut: rpc(
    'mem.rpc.workspace.put',
    PutWorkspaceRequestSchema,
    PutWorkspaceResponseSchema,
    workspacePutRules,
    { owner: 'context-builder' },
  ),
  skillPut: rpc('mem.rpc.skill.put', PutSkillsRequestSchema, PutSkillsResponseSchema, skillPutRules, {
    owner: 'context-builder',
  }),
  tenantSettingsGet: rpc(
    'mem.rpc.tenant.settings.get',
    GetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsGetRules,
    { owner: 'ingest', readOnly: true },
  ),
  tenantSettingsSet: rpc(
    'mem.rpc.tenant.settings.set',
    SetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsSetRules,
    { owner: 'ingest' },
  ),
  beingSceneAdd: rpc(
    'mem.rpc.being.scene.add',
    AddSceneRequestSchema,
    AddSceneResponseSchema,
    sceneAddRules,
    { owner: 'patrol' },
  ),
  beingNoteAdd: rpc('mem.rpc.being.note.add', AddNoteRequestSchema, BeingNoteSchema, noteAddRules, {
    owner: 'patrol',
  }),
  beingNotesList: rpc(
    'mem.rpc.being.notes.list',
    ListNotesRequestSchema,
    ListNotesResponseSchema,
    notesListRules,
    { owner: 'patrol' },
  ),
  beingNotesRead: rpc(
    'mem.rpc.being.notes.read',
    MarkNotesReadRequestSchema,
    MarkNotesReadResponseSchema,
    notesReadRules,
    { owner: 'patrol' },
  ),
  beingRulePut: rpc(
    'mem.rpc.being.rule.put',
    PutPartnerRuleRequestSchema,
    PartnerRuleSchema,
    partnerRulePutRules,
    { owner: 'patrol' },
  ),
  beingRelationshipPut: rpc(
    'mem.rpc.being.relationship.put',
    PutRelationshipRequestSchema,
    RelationshipSchema,
    relationshipPutRules,
    { owner: 'patrol' },
  ),
  beingPreferencePut: rpc(
    'mem.rpc.being.preference.put',
    PutPreferenceRequestSchema,
    PreferenceSchema,
    preferencePutRules,
    { owner: 'patrol' },
  ),
  beingSoulPut: rpc('mem.rpc.being.soul.put', PutSoulRequestSchema, SoulSchema, soulPutRules, {
    owner: 'patrol',
  }),
  beingGet: rpc('mem.rpc.being.get', GetBeingRequestSchema, BeingSchema, beingGetRules, { owner: 'patrol' }),
  beingNodePin: rpc('mem.rpc.being.node.pin', PinNodeRequestSchema, SceneNodeSchema, nodePinRules, {
    owner: 'patrol',
  }),
  beingRecall: rpc(
    'mem.rpc.being.recall',
    BeingRecallRequestSchema,
    BeingRecallResponseSchema,
    beingRecallRules,
    // A being's context build recalls the current message, as chat does.
    { owner: 'patrol', callers: ['api', 'context-builder'] },
  ),
  beingRecallMemory: rpc(
    'mem.rpc.being.recall_memory',
    RecallMemoryRequestSchema,
    SceneNodesResponseSchema,
    recallMemoryRules,
    { owner: 'patrol' },
  ),
  beingSearchMemory: rpc(
    'mem.rpc.being.search_memory',
    SearchMemoryRequestSchema,
    SceneNodesResponseSchema,
    searchMemoryRules,
    { owner: 'patrol' },
  ),
  beingNodesList: rpc(
    'mem.rpc.being.nodes.list',
    ListNodesRequestSchema,
    SceneNodesResponseSchema,
    nodesListRules,
    // Unlike recall_memory, it revives nothing: a look at the nodes, not a recollection.
    { owner: 'patrol', readOnly: true },
  ),
  beingNodeHistory: rpc(
    'mem.rpc.being.node.history',
    NodeHistoryRequestSchema,
    NodeHistoryResponseSchema,
    nodeHistoryRules,
    { owner: 'patrol', readOnly: true },
  ),
  beingJournal: rpc('mem.rpc.being.journal', JournalRequestSchema, JournalResponseSchema, journalRules, {
    owner: 'patrol',
    readOnly: true,
  }),
  patrolRun: rpc('mem.rpc.patrol.run', RunPatrolRequestSchema, PatrolReportSchema, patrolRunRules, {
    owner: 'patrol',
    publishes: ['patrolCompleted'],
  }),
  gertyEmbed: rpc('gerty.rpc.embed', EmbedRequestSchema, EmbedResponseSchema, embedRules, {
    owner: 'gerty',
    callers: GERTY_CALLERS,
    tenantScoped: false,
  }),
  gertyComplete: rpc('gerty.rpc.complete', CompleteRequestSchema, CompleteResponseSchema, completeRules, {
    owner: 'gerty',
    callers: GERTY_CALLERS,
    tenantScoped: false,
  }),
  gertyModels: rpc('gerty.rpc.models', ListModelsRequestSchema, ListModelsResponseSchema, listModelsRules, {
    owner: 'gerty',
    callers: GERTY_CALLERS,
    tenantScoped: false,
  }),
  gertySetTenantKey: rpc(
    'gerty.rpc.keys.set',
    SetTenantKeyRequestSchema,
    SetTenantKeyResponseSchema,
    setTenantKeyRules,
    { owner: 'gerty' },
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

/**
 * The HTTP route of a tenant-scoped RPC on the api edge: `POST /v1/<subject after
 * "mem.rpc.", dots as slashes>` (`mem.rpc.being.scene.add` → `/v1/being/scene/add`).
 */
export function httpPath(spec: RpcSpec): string {
  const prefix = 'mem.rpc.';
  if (!spec.tenantScoped || !spec.subject.startsWith(prefix))
    throw new Error(`${spec.subject} is not served over HTTP`);
  return `/v1/${spec.subject.slice(prefix.length).replaceAll('.', '/')}`;
}
