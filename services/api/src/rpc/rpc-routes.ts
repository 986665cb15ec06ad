import { httpAliasPaths, httpPath, Rpcs, type RpcSpec } from '@engram/contracts';

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
    'Hybrid search over messages, summaries and facts: ranked hits with provenance, optionally a short answer citing them; `asOf` (RFC 3339) asks as of a past moment.',
  browse: 'A conversation, or all of an agent’s messages, a page at a time in order.',
  deadLettersList:
    'The tenant’s dead letters, newest first: messages a worker gave up on, with the reason and the original message.',
  deadLettersRedrive:
    'Publishes a dead letter’s original message again on its subject (its workers see it once more) and removes the letter.',
  statsGet: 'Counts of the tenant’s memory (stored, embedded, summarised, facts) and the workers’ queues.',
  expand:
    'Items by ref (summary:45, message:12, fact:6) drilled down: a summary to its children and messages, a message to the turns either side, a fact to its sources.',
  save: 'Stores a fact explicitly (deduplicated like tagged facts).',
  forget: 'Closes a fact’s validity, with a reason; nothing is deleted.',
  erase:
    'Erases a conversation, an agent or the whole tenant for good: its messages and everything derived from them (vectors, summaries, facts, state, being memory, turns and dead letters in JetStream), audited. Any key of the tenant may.',
  factsList: 'Facts by agent, category, conversation and time, newest first, with the total for paging.',
  factsGet:
    'A fact with its history: every version of its supersession chain (ADD, UPDATE, DELETE), oldest first.',
  factsUpdate: 'Edits a fact: a new version supersedes it (the old one is kept, closed).',
  stateList: 'An agent’s [STATE:] key/values.',
  conversationsList:
    'The tenant’s conversations, with their attributes and message counts; those whose title, agent, session or channel hold every word of a query.',
  agentsList:
    'The tenant’s agents by name, each with its profile, counts (messages, conversations, open facts, scene nodes) and last message.',
  summariesList:
    'A conversation’s summary tree, roots first: each summary’s span, content and children (a leaf’s messages).',
  compactionsList:
    'A conversation’s session compactions, oldest first: each rolling summary, the messages it compacted, tokens and model.',
  contextBuild:
    'The blocks of the next prompt, within budget; `asOf` (RFC 3339) builds it as of a past moment.',
  agentsPut: 'Stores an agent’s profile (replacing the whole profile).',
  agentsGet: 'Reads an agent’s profile.',
  workspacePut: 'Stores an agent’s workspace documents (SOUL.md, USER.md …) by name.',
  skillsPut: 'Stores an agent’s skills (Markdown with triggers) by name.',
  tenantSettingsGet: 'The tenant’s settings (memoryEnabled).',
  tenantSettingsUpdate: 'Changes the tenant’s settings.',
  beingScenesAdd:
    'Being memory: a scene note (JSON) for the next patrol to make a scene of; one that does not parse is kept, marked [PARSE_FAILED].',
  beingNotesAdd: 'Being memory: a note, TODO, reminder (with dueAt) or piece of knowledge.',
  beingNotesList: 'Being memory: notes, newest first, by kind, unread only if asked.',
  beingNotesRead: 'Being memory: marks notes read; answers how many were unread.',
  beingRulesPut: 'Being memory: a partner rule, by its text, enabled or not.',
  beingRelationshipsPut: 'Being memory: a relationship, by person.',
  beingPreferencesPut: 'Being memory: a user preference, by key.',
  beingSoulPut: 'Being memory: replaces the being’s soul whole.',
  beingGet:
    'Being memory: soul, rules, relationships, preferences, clusters (nodes active, dying, dead) and the notes waiting.',
  beingNodesPin:
    'Being memory: pins (or unpins) a scene: a pinned scene never dies, and pinning brings a dying or dead one back.',
  beingRecall:
    'Being memory: what a message brings back: up to 3 scenes at cosine 0.35 or more, in a <memory> tag.',
  beingClustersRecall: 'Being memory: every scene of a cluster.',
  beingNodesSearch:
    'Being memory: scenes by keywords (any or every one) in their action, feeling, themes and dates.',
  beingNodesList:
    'Being memory: a being’s scenes (all, or a cluster’s own) by status, most important first; revives nothing.',
  beingNodesHistoryGet:
    'Being memory: a scene’s importance and status patrol run by run, from the run that made it.',
  beingJournalGet: 'Being memory: the diary, newest day first, and the think notes in force.',
  patrolRun: 'Being memory: runs the being’s patrol now and answers what each step changed.',
};

/** One memory RPC at its HTTP route, or at a former route it still answers. */
export interface RpcRoute {
  /** The OpenAPI operationId: the RPC's name in `Rpcs`, or its former name at a former route. */
  readonly name: string;
  readonly path: string;
  readonly spec: RpcSpec;
  readonly summary: string;
  /** At a former route (RpcSpec.aliases): the route that replaces it. */
  readonly replacedBy?: string;
}

const NAMES = Object.keys(SUMMARIES) as MemoryRpcName[];

/** Every memory RPC with its route, in the order of the RPC table. */
export const RPC_ROUTES: readonly RpcRoute[] = NAMES.map((name) => ({
  name,
  path: httpPath(Rpcs[name]),
  spec: Rpcs[name],
  summary: SUMMARIES[name],
}));

/** The former routes still answered, each as the RPC that replaced it. */
export const ALIAS_ROUTES: readonly RpcRoute[] = RPC_ROUTES.flatMap((route) =>
  httpAliasPaths(route.spec).map((path) => ({
    name: formerName(path),
    path,
    spec: route.spec,
    summary: `Deprecated: the former route of ${route.path}. ${route.summary}`,
    replacedBy: route.path,
  })),
);

/** A former route's operationId as it was: `/v1/being/recall_memory` → `beingRecallMemory`. */
function formerName(path: string): string {
  return path
    .slice('/v1/'.length)
    .split(/[/_]/)
    .map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1)))
    .join('');
}

const BY_PATH: ReadonlyMap<string, RpcRoute> = new Map(
  [...RPC_ROUTES, ...ALIAS_ROUTES].map((route) => [route.path, route]),
);

/** The route at a request path (its query string ignored), if any. */
export function routeAt(url: string): RpcRoute | undefined {
  const query = url.indexOf('?');
  return BY_PATH.get(query < 0 ? url : url.slice(0, query));
}
