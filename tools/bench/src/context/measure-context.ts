import type { NatsConnection } from '@nats-io/transport-node';
import { Rpcs, timestampFromDate, type ContextBuildResponse } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { runClosedLoop } from '../search/closed-loop';
import type { LatencyRun } from '../search/search-report';
import type { AgentWorkspace } from './agent-workspace';
import type { ContextRequest } from './context-requests';
import { buildRunOf, latencyRunOf, type BuildAnswer, type BuildRun } from './context-report';

const TIMEOUT_MS = 10_000;

/**
 * Stores each agent's profile, workspace documents and skills through context-builder's own
 * RPCs (upserts: a second run changes nothing), `clients` agents at a time. Fails on anything
 * skipped or rejected: the benchmark's prompts would not be what it says.
 */
export async function seedWorkspaces(
  nc: NatsConnection,
  workspaces: readonly AgentWorkspace[],
  clients: number,
): Promise<{ documents: number; skills: number; seconds: number }> {
  let documents = 0;
  let skills = 0;
  const run = await runClosedLoop(workspaces, clients, async (w) => {
    const options = { tenantId: w.tenantId, timeoutMs: TIMEOUT_MS };
    await callRpc(nc, Rpcs.agentsPut, w.profile, options);
    const put = await callRpc(nc, Rpcs.workspacePut, { agent: w.agent, documents: w.documents }, options);
    if (put.skipped.length)
      throw new Error(`workspace of ${w.tenantId}/${w.agent}: skipped ${JSON.stringify(put.skipped)}`);
    const stored = await callRpc(nc, Rpcs.skillsPut, { agent: w.agent, files: w.skills }, options);
    if (stored.rejected.length)
      throw new Error(`skills of ${w.tenantId}/${w.agent}: rejected ${JSON.stringify(stored.rejected)}`);
    documents += put.stored.length;
    skills += stored.stored.length;
  });
  const failed = run.outcomes.find((o) => o.error !== undefined);
  if (failed) throw new Error(`seeding the agents' workspaces failed: ${failed.error}`);
  return { documents, skills, seconds: run.wallMs / 1000 };
}

/** mem.rpc.context.build as an agent runtime asks it before each turn. */
export async function buildContext(nc: NatsConnection, r: ContextRequest): Promise<BuildAnswer> {
  const response: ContextBuildResponse = await callRpc(
    nc,
    Rpcs.contextBuild,
    {
      agent: r.agent,
      ...(r.conversationId ? { conversationId: r.conversationId } : {}),
      ...(r.sessionKey ? { sessionKey: r.sessionKey } : {}),
      currentMessage: r.currentMessage,
      asOf: timestampFromDate(r.asOf),
    },
    { tenantId: r.tenantId, timeoutMs: TIMEOUT_MS },
  );
  const sources = (layer: string) =>
    response.blocks.filter((b) => b.layer === layer).reduce((n, b) => n + b.sourceIds.length, 0);
  return {
    ...(response.degraded ? { degradedReason: response.degradedReason } : {}),
    totalTokens: response.totalTokens,
    memoryHits: sources('memory'),
    recentMessages: sources('recent'),
    skills: response.blocks.some((b) => b.layer === 'skills'),
    cutLayers: response.cut.length,
  };
}

/** mem.rpc.search exactly as context-builder asks it for the relevant-memory layer (MemorySearchGateway). */
function searchAsContext(nc: NatsConnection, r: ContextRequest, topK: number) {
  return callRpc(
    nc,
    Rpcs.search,
    {
      query: r.currentMessage.trim().slice(0, 2000),
      filters: { agent: r.agent },
      topK,
      expand: false,
      recordAccess: false,
    },
    { tenantId: r.tenantId, timeoutMs: TIMEOUT_MS },
  );
}

/** Warm-up (unmeasured, `clients` at a time), then the measured builds `clients` at a time, then one at a time. */
export async function measureBuilds(
  nc: NatsConnection,
  warmup: readonly ContextRequest[],
  measured: readonly ContextRequest[],
  clients: number,
  progress: (text: string) => void,
): Promise<{ concurrent: BuildRun; serial: BuildRun }> {
  await runClosedLoop(warmup, clients, (r) => buildContext(nc, r));
  const concurrent = buildRunOf(await runClosedLoop(measured, clients, (r) => buildContext(nc, r)));
  progress(
    `context.build, ${clients} clients: p50 ${concurrent.latency.p50Ms} ms, p95 ${concurrent.latency.p95Ms} ms (${concurrent.latency.count}/${concurrent.calls} answered, ${concurrent.degraded} degraded)`,
  );
  const serial = buildRunOf(await runClosedLoop(measured, 1, (r) => buildContext(nc, r)));
  progress(
    `context.build, serial: p50 ${serial.latency.p50Ms} ms, p95 ${serial.latency.p95Ms} ms (${serial.latency.count}/${serial.calls} answered, ${serial.degraded} degraded)`,
  );
  return { concurrent, serial };
}

/** Retrieval alone, for the same messages, agents and top K as the builds: `clients` at a time, then one at a time. */
export async function measureRetrieval(
  nc: NatsConnection,
  requests: readonly ContextRequest[],
  clients: number,
  topK: number,
): Promise<{ concurrent: LatencyRun; serial: LatencyRun }> {
  const degraded = (r: { degraded: boolean; degradedReason: string }) =>
    r.degraded ? r.degradedReason : undefined;
  const concurrent = latencyRunOf(
    await runClosedLoop(requests, clients, (r) => searchAsContext(nc, r, topK)),
    degraded,
  );
  const serial = latencyRunOf(
    await runClosedLoop(requests, 1, (r) => searchAsContext(nc, r, topK)),
    degraded,
  );
  return { concurrent, serial };
}
