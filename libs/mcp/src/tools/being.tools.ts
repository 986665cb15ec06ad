import { toJson } from '@bufbuild/protobuf';
import {
  BeingRecallResponseSchema,
  isRowId,
  MAX_BEING_LIST,
  MAX_LABEL_CHARS,
  MAX_RECALL_MESSAGE_CHARS,
  MAX_SCENES_PAGE,
  Rpcs,
  SceneNodesResponseSchema,
  SEARCH_MATCHES,
  type ClusterSummary,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { bareId, choice, integer, list, text } from '../arguments';
import { defineTool } from '../memory-tool';
import { renderRecall, renderScenes } from '../render';
import type { ToolScope } from '../tool-scope';

/** Scenes search_memory answers when the assistant does not say. */
export const DEFAULT_SCENES = 20;

const json = { alwaysEmitImplicit: true } as const;

/** Why being memory's tools act for the server's agent only. */
const OWN_MEMORY =
  "It is this agent's own scene memory (a being's), and recalling counts: a faded scene recalled often enough comes back to life at the next patrol.";

export const recall = defineTool({
  name: 'recall',
  title: 'What this brings back',
  description: [
    'Let what was just said bring back scenes this agent lived through: up to 3 scenes most similar in meaning to the message (cosine 0.35 or more), faded ones included.',
    'Use it on each message of the conversation partner, the way a person is reminded of things; it finds by meaning, search_memory by keywords.',
    'Returns the memory to keep in mind as a `<memory>…</memory>` text, then the scenes (`[node:id] status · cluster · importance — date — setting — action — "dialogue" — (feeling)`); nothing similar enough answers that nothing comes back.',
    OWN_MEMORY,
  ].join(' '),
  arguments: {
    message: text('What was just said', MAX_RECALL_MESSAGE_CHARS),
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(args, scope) {
    const recalled = await scope.call(Rpcs.beingRecall, { agent: scope.agent, message: args.message });
    return {
      text: renderRecall(recalled),
      structured: toJson(BeingRecallResponseSchema, recalled, json) as Record<string, unknown>,
    };
  },
});

export const recallMemory = defineTool({
  name: 'recall_memory',
  title: 'Scenes of a cluster',
  description: [
    'Every scene of one cluster of this agent\'s scene memory. Clusters group scenes by topic under two roots, Business and Private, with sub-clusters such as "Cooking".',
    'Give the cluster by its name or id (scenes show theirs as "cluster 3"); without a cluster, the answer lists the clusters with their scene counts.',
    'Returns the scenes as `[node:id] status · cluster · importance — date — setting — action — "dialogue" — (feeling)`.',
    OWN_MEMORY,
  ].join(' '),
  arguments: {
    cluster: text('The cluster: its name ("Private", "Cooking") or id ("3")', MAX_LABEL_CHARS).optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(args, scope) {
    if (args.cluster === undefined) return listClusters(scope);
    const clusterId = await clusterIdOf(scope, args.cluster);
    const scenes = await scope.call(Rpcs.beingClustersRecall, { agent: scope.agent, clusterId });
    return {
      text: renderScenes(scenes.nodes, `Cluster ${args.cluster} holds no scenes.`),
      structured: toJson(SceneNodesResponseSchema, scenes, json) as Record<string, unknown>,
    };
  },
});

export const searchMemory = defineTool({
  name: 'search_memory',
  title: 'Scenes by keywords',
  description: [
    'Find scenes of this agent\'s scene memory by keywords in their action, feeling, themes and dates ("2024-05" finds May 2024).',
    `Use it to look for something specific; recall finds by meaning instead. With match "or" (default) a scene needs any keyword, with "and" every one. Returns up to limit scenes (default ${DEFAULT_SCENES}, at most ${MAX_SCENES_PAGE}) as \`[node:id] status · cluster · importance — date — setting — action — "dialogue" — (feeling)\`.`,
    OWN_MEMORY,
  ].join(' '),
  arguments: {
    keywords: list(text('A keyword or phrase', MAX_LABEL_CHARS), 'What to look for', MAX_BEING_LIST),
    match: choice(SEARCH_MATCHES, 'Any keyword ("or", default) or every keyword ("and")').optional(),
    limit: integer(
      `Scenes to return, 1-${MAX_SCENES_PAGE}; default ${DEFAULT_SCENES}`,
      1,
      MAX_SCENES_PAGE,
    ).optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(args, scope) {
    const scenes = await scope.call(Rpcs.beingNodesSearch, {
      agent: scope.agent,
      keywords: args.keywords,
      match: args.match ?? '',
      limit: args.limit ?? DEFAULT_SCENES,
    });
    return {
      text: renderScenes(
        scenes.nodes,
        `No scene mentions ${args.keywords.map((k) => JSON.stringify(k)).join(args.match === 'and' ? ' and ' : ' or ')}.`,
      ),
      structured: toJson(SceneNodesResponseSchema, scenes, json) as Record<string, unknown>,
    };
  },
});

/** The being's clusters (mem.rpc.being.get): NOT_FOUND says it has no scene memory yet. */
async function clustersOf(scope: ToolScope): Promise<ClusterSummary[]> {
  try {
    return (await scope.call(Rpcs.beingGet, { agent: scope.agent })).clusters;
  } catch (error) {
    if (error instanceof RpcError && error.code === 'NOT_FOUND')
      throw RpcError.notFound(`agent ${scope.agent} has no scene memory yet (no scene was written for it)`);
    throw error;
  }
}

/** A cluster line: `Cooking (id 3, under Private): 4 active, 1 dying, 0 dead`. */
function clusterLine(cluster: ClusterSummary, byId: ReadonlyMap<string, ClusterSummary>): string {
  const parent = cluster.parentId !== cluster.id ? byId.get(cluster.parentId) : undefined;
  return `${cluster.name} (id ${cluster.id}${parent ? `, under ${parent.name}` : ''}): ${cluster.active} active, ${cluster.dying} dying, ${cluster.dead} dead`;
}

/** recall_memory without a cluster: the being's clusters, each with its scene counts, to choose from. */
async function listClusters(scope: ToolScope) {
  const clusters = await clustersOf(scope);
  const byId = new Map(clusters.map((c) => [c.id, c]));
  return {
    text: [`${clusters.length} clusters:`, ...clusters.map((c) => `- ${clusterLine(c, byId)}`)].join('\n'),
    structured: {
      clusters: clusters.map((c) => ({
        id: c.id,
        name: c.name,
        root: c.root,
        parentId: c.parentId,
        active: c.active,
        dying: c.dying,
        dead: c.dead,
      })),
    },
  };
}

/** A cluster named by id ("3", "cluster:3") as it is; by name (any letter case) looked up among the being's clusters. */
async function clusterIdOf(scope: ToolScope, cluster: string): Promise<string> {
  const id = bareId('cluster', cluster);
  if (isRowId(id)) return id;
  const clusters = await clustersOf(scope);
  const wanted = cluster.trim().toLowerCase();
  const named = clusters.filter((c) => c.name.toLowerCase() === wanted);
  if (named.length === 1) return named[0]!.id;
  const byId = new Map(clusters.map((c) => [c.id, c]));
  if (named.length > 1)
    throw RpcError.invalidArgument(
      `${named.length} clusters are named ${JSON.stringify(cluster)}; give one by id: ${named.map((c) => clusterLine(c, byId)).join('; ')}`,
    );
  throw RpcError.notFound(
    `no cluster named ${JSON.stringify(cluster)}; the clusters are: ${clusters.map((c) => `${c.name} (id ${c.id})`).join(', ')}`,
  );
}
