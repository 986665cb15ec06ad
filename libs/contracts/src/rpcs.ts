import type { DescMessage } from '@bufbuild/protobuf';
import {
  BrowseRequestSchema,
  BrowseResponseSchema,
  ForgetRequestSchema,
  ForgetResponseSchema,
  ExpandRequestSchema,
  ExpandResponseSchema,
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
  ListFactsRequestSchema,
  ListFactsResponseSchema,
  UpdateFactRequestSchema,
} from './gen/memory/v1/facts_pb';
import { ListStateRequestSchema, ListStateResponseSchema } from './gen/memory/v1/state_pb';
import {
  ListConversationsRequestSchema,
  ListConversationsResponseSchema,
} from './gen/memory/v1/conversations_pb';
import { SummaryTreeRequestSchema, SummaryTreeResponseSchema } from './gen/memory/v1/summaries_pb';
import { ListCompactionsRequestSchema, ListCompactionsResponseSchema } from './gen/memory/v1/compactions_pb';
import {
  ListDeadLettersRequestSchema,
  ListDeadLettersResponseSchema,
  RedriveDeadLetterRequestSchema,
  RedriveDeadLetterResponseSchema,
} from './gen/memory/v1/dead_letters_pb';
import {
  AgentProfileSchema,
  GetAgentRequestSchema,
  ListAgentsRequestSchema,
  ListAgentsResponseSchema,
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
  expandRules,
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
  /**
   * Former subjects it still answers, for a deprecation window (each also has its HTTP route):
   * a client written against the old name keeps working while the docs name the new one.
   */
  readonly aliases: readonly string[];
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
  /** Former subjects still answered (RpcSpec.aliases). */
  readonly aliases?: readonly string[];
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
    aliases = [],
  }: RpcPlacement,
): RpcSpec<Req, Res> {
  if (partitioned && !tenantScoped)
    throw new Error(`${subject}: only a tenant-scoped RPC can be partitioned`);
  // Partitions are mapped per subject by nats-server: an alias would bypass them.
  if (partitioned && aliases.length > 0) throw new Error(`${subject}: a partitioned RPC has no aliases`);
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
    aliases,
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
  statsGet: rpc('mem.rpc.stats.get', StatsRequestSchema, StatsResponseSchema, statsRules, {
    aliases: ['mem.rpc.stats'],
    owner: 'retrieval',
    readOnly: true,
  }),
  expand: rpc('mem.rpc.expand', ExpandRequestSchema, ExpandResponseSchema, expandRules, {
    aliases: ['mem.rpc.recall'],
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
  summariesList: rpc(
    'mem.rpc.summaries.list',
    SummaryTreeRequestSchema,
    SummaryTreeResponseSchema,
    summariesTreeRules,
    { aliases: ['mem.rpc.summaries.tree'], owner: 'retrieval', readOnly: true },
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
  agentsPut: rpc('mem.rpc.agents.put', PutAgentRequestSchema, AgentProfileSchema, agentPutRules, {
    aliases: ['mem.rpc.agent.put'],
    owner: 'context-builder',
  }),
  agentsGet: rpc('mem.rpc.agents.get', GetAgentRequestSchema, AgentProfileSchema, agentGetRules, {
    aliases: ['mem.rpc.agent.get'],
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
  skillsPut: rpc('mem.rpc.skills.put', PutSkillsRequestSchema, PutSkillsResponseSchema, skillPutRules, {
    aliases: ['mem.rpc.skill.put'],
    owner: 'context-builder',
  }),
  tenantSettingsGet: rpc(
    'mem.rpc.tenant.settings.get',
    GetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsGetRules,
    { owner: 'ingest', readOnly: true },
  ),
  tenantSettingsUpdate: rpc(
    'mem.rpc.tenant.settings.update',
    SetTenantSettingsRequestSchema,
    TenantSettingsSchema,
    tenantSettingsSetRules,
    { aliases: ['mem.rpc.tenant.settings.set'], owner: 'ingest' },
  ),
  beingScenesAdd: rpc(
    'mem.rpc.being.scenes.add',
    AddSceneRequestSchema,
    AddSceneResponseSchema,
    sceneAddRules,
    { aliases: ['mem.rpc.being.scene.add'], owner: 'patrol' },
  ),
  beingNotesAdd: rpc('mem.rpc.being.notes.add', AddNoteRequestSchema, BeingNoteSchema, noteAddRules, {
    aliases: ['mem.rpc.being.note.add'],
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
  beingRulesPut: rpc(
    'mem.rpc.being.rules.put',
    PutPartnerRuleRequestSchema,
    PartnerRuleSchema,
    partnerRulePutRules,
    { aliases: ['mem.rpc.being.rule.put'], owner: 'patrol' },
  ),
  beingRelationshipsPut: rpc(
    'mem.rpc.being.relationships.put',
    PutRelationshipRequestSchema,
    RelationshipSchema,
    relationshipPutRules,
    { aliases: ['mem.rpc.being.relationship.put'], owner: 'patrol' },
  ),
  beingPreferencesPut: rpc(
    'mem.rpc.being.preferences.put',
    PutPreferenceRequestSchema,
    PreferenceSchema,
    preferencePutRules,
    { aliases: ['mem.rpc.being.preference.put'], owner: 'patrol' },
  ),
  beingSoulPut: rpc('mem.rpc.being.soul.put', PutSoulRequestSchema, SoulSchema, soulPutRules, {
    owner: 'patrol',
  }),
  beingGet: rpc('mem.rpc.being.get', GetBeingRequestSchema, BeingSchema, beingGetRules, { owner: 'patrol' }),
  beingNodesPin: rpc('mem.rpc.being.nodes.pin', PinNodeRequestSchema, SceneNodeSchema, nodePinRules, {
    aliases: ['mem.rpc.being.node.pin'],
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
  beingClustersRecall: rpc(
    'mem.rpc.being.clusters.recall',
    RecallMemoryRequestSchema,
    SceneNodesResponseSchema,
    recallMemoryRules,
    { aliases: ['mem.rpc.being.recall_memory'], owner: 'patrol' },
  ),
  beingNodesSearch: rpc(
    'mem.rpc.being.nodes.search',
    SearchMemoryRequestSchema,
    SceneNodesResponseSchema,
    searchMemoryRules,
    { aliases: ['mem.rpc.being.search_memory'], owner: 'patrol' },
  ),
  beingNodesList: rpc(
    'mem.rpc.being.nodes.list',
    ListNodesRequestSchema,
    SceneNodesResponseSchema,
    nodesListRules,
    // Unlike recall_memory, it revives nothing: a look at the nodes, not a recollection.
    { owner: 'patrol', readOnly: true },
  ),
  beingNodesHistoryGet: rpc(
    'mem.rpc.being.nodes.history.get',
    NodeHistoryRequestSchema,
    NodeHistoryResponseSchema,
    nodeHistoryRules,
    { aliases: ['mem.rpc.being.node.history'], owner: 'patrol', readOnly: true },
  ),
  beingJournalGet: rpc(
    'mem.rpc.being.journal.get',
    JournalRequestSchema,
    JournalResponseSchema,
    journalRules,
    {
      aliases: ['mem.rpc.being.journal'],
      owner: 'patrol',
      readOnly: true,
    },
  ),
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
  gertyModelsList: rpc(
    'gerty.rpc.models.list',
    ListModelsRequestSchema,
    ListModelsResponseSchema,
    listModelsRules,
    {
      aliases: ['gerty.rpc.models'],
      owner: 'gerty',
      callers: GERTY_CALLERS,
      tenantScoped: false,
    },
  ),
  gertyKeysPut: rpc(
    'gerty.rpc.keys.put',
    SetTenantKeyRequestSchema,
    SetTenantKeyResponseSchema,
    setTenantKeyRules,
    { aliases: ['gerty.rpc.keys.set'], owner: 'gerty' },
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
  return subscriptionOf(spec, spec.subject);
}

/** What a server subscribes to for each of its former subjects (RpcSpec.aliases). */
export function rpcAliasSubscriptions(spec: RpcSpec): string[] {
  return spec.aliases.map((alias) => subscriptionOf(spec, alias));
}

/** A subject of the RPC as a server subscribes to it: every tenant's when tenant-scoped. */
function subscriptionOf(spec: RpcSpec, subject: string): string {
  return spec.tenantScoped ? `${subject}.*` : subject;
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
 * "mem.rpc.", dots as slashes>` (`mem.rpc.being.scenes.add` → `/v1/being/scenes/add`).
 */
export function httpPath(spec: RpcSpec): string {
  return routeOf(spec, spec.subject);
}

/** The HTTP routes of an RPC's former subjects (RpcSpec.aliases), answered as its own. */
export function httpAliasPaths(spec: RpcSpec): string[] {
  return spec.aliases.map((alias) => routeOf(spec, alias));
}

/** `/v1/` and a memory subject after `mem.rpc.`, dots as slashes. */
function routeOf(spec: RpcSpec, subject: string): string {
  const prefix = 'mem.rpc.';
  if (!spec.tenantScoped || !subject.startsWith(prefix))
    throw new Error(`${subject} is not served over HTTP`);
  return `/v1/${subject.slice(prefix.length).replaceAll('.', '/')}`;
}
