import type { JsonObject } from '@bufbuild/protobuf';
import type { PutAgentRequest } from '@engram/contracts';

/** An agent's profile as stored (table agents). */
export interface AgentProfileRecord {
  readonly agent: string;
  readonly name: string | null;
  readonly personality: string | null;
  readonly job: string | null;
  readonly userName: string | null;
  readonly tools: string[];
  readonly sceneMemory: boolean;
  readonly model: string | null;
  readonly settings: JsonObject;
}

/** Trimmed; empty or absent is null. */
const text = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? null : value.trim();

/**
 * A mem.rpc.agents.put request as stored (it passed its rules, libs/contracts agentPutRules):
 * texts trimmed, tools trimmed and each once. A put is the whole profile: a field left out
 * is cleared.
 */
export function profileToStore(request: PutAgentRequest): AgentProfileRecord {
  return {
    agent: request.agent,
    name: text(request.name),
    personality: text(request.personality),
    job: text(request.job),
    userName: text(request.userName),
    tools: [...new Set(request.tools.map((t) => t.trim()))],
    sceneMemory: request.sceneMemory,
    model: text(request.model),
    settings: request.settings ?? {},
  };
}
