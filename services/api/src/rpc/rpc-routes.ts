import { httpPath, Rpcs, type RpcSpec } from '@engram/contracts';

type RpcName = keyof typeof Rpcs;

/** The memory RPCs: every tenant-scoped `mem.rpc.*` one (Gerty's are infrastructure, not API). */
type MemoryRpcName = {
  [K in RpcName]: (typeof Rpcs)[K]['subject'] extends `mem.rpc.${string}` ? K : never;
}[RpcName];

/**
 * What each route does, for the OpenAPI document. Typed by the RPC table, so a memory RPC
 * without a line here does not compile.
 */
const SUMMARIES: Record<MemoryRpcName, string> = {
  search:
    'Search memory: messages, summaries and facts ranked by hybrid lexical + semantic + recency scoring.',
  browse: 'Read a conversation’s transcript page by page, or the messages around one.',
  stats: 'Counts of what is stored and derived (messages, vectors, summaries, facts) and queue backlogs.',
  recall:
    'Drill down from hits to what they came from: a summary’s children, a fact’s source messages, a message’s neighbours.',
  save: 'Save a fact explicitly (deduplicated against the agent’s open facts).',
  forget: 'Forget a fact: it is closed (kept for history) and no longer found.',
  contextBuild:
    'Build the next prompt: persona, workspace, relevant memory and recent turns within a token budget.',
  agentPut: 'Create or update an agent’s profile.',
  agentGet: 'Read an agent’s profile.',
  workspacePut: 'Store an agent’s workspace documents (SOUL.md, USER.md, MEMORY.md …).',
  skillPut: 'Store an agent’s skills (markdown with YAML front matter).',
  tenantSettingsGet: 'Read the tenant’s settings (memoryEnabled …).',
  tenantSettingsSet: 'Change the tenant’s settings.',
  beingSceneAdd: 'Being memory: add a scene note for the next patrol to turn into a memory node.',
  beingNoteAdd: 'Being memory: add a note, TODO, reminder or piece of knowledge.',
  beingNotesList: 'Being memory: list notes (unread first).',
  beingNotesRead: 'Being memory: mark notes as read.',
  beingRulePut: 'Being memory: create or change a partner rule.',
  beingRelationshipPut: 'Being memory: create or change a relationship.',
  beingPreferencePut: 'Being memory: create or change a user preference.',
  beingSoulPut: 'Being memory: write the soul (personality, voice, values, backstory …).',
  beingGet: 'Being memory: the being with its clusters, counts, soul, rules and unread notes.',
  beingNodePin: 'Being memory: pin or unpin a scene node (pinned nodes never fade).',
  beingRecall: 'Being memory: scenes that come to mind for the conversation so far (may be none).',
  beingRecallMemory: 'Being memory: the scenes most similar to a cue, reviving faded ones.',
  beingSearchMemory: 'Being memory: search scene nodes by words, cluster or status.',
  patrolRun: 'Being memory: run the patrol now (decay, consolidation, revival, diary) and report each step.',
};

/** One memory RPC at its HTTP route. */
export interface RpcRoute {
  /** The RPC's name in `Rpcs` (the OpenAPI operationId). */
  readonly name: MemoryRpcName;
  readonly path: string;
  readonly spec: RpcSpec;
  readonly summary: string;
}

/** Every memory RPC with its route, in the order of the RPC table. */
export const RPC_ROUTES: readonly RpcRoute[] = (Object.keys(SUMMARIES) as MemoryRpcName[]).map((name) => ({
  name,
  path: httpPath(Rpcs[name]),
  spec: Rpcs[name],
  summary: SUMMARIES[name],
}));

const BY_PATH: ReadonlyMap<string, RpcRoute> = new Map(RPC_ROUTES.map((route) => [route.path, route]));

/** The route at a request path (its query string ignored), if any. */
export function routeAt(url: string): RpcRoute | undefined {
  const query = url.indexOf('?');
  return BY_PATH.get(query < 0 ? url : url.slice(0, query));
}
