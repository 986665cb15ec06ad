import type { JsonObject } from '@bufbuild/protobuf';
import { isValidToken, type PutAgentRequest } from '@engram/contracts';
import { RequestChecks } from './request-checks';

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
 * Checks a mem.rpc.agent.put request: the agent token, tool names (the token rule too:
 * they are function names), each text at most 1 MB. A put is the whole profile: a field
 * left out is cleared.
 */
export function profileToStore(request: PutAgentRequest): AgentProfileRecord {
  const checks = new RequestChecks('agent profile');
  checks.agent(request.agent);
  for (const field of ['name', 'personality', 'job', 'userName', 'model'] as const)
    checks.text(field, request[field] ?? '');
  const tools = [...new Set(request.tools.map((t) => t.trim()))];
  const badTools = tools.filter((t) => !isValidToken(t));
  if (badTools.length > 0) {
    checks.problem(
      'tools',
      `tool names must be 1-64 letters, digits, "_" or "-": ${badTools
        .slice(0, 5)
        .map((t) => JSON.stringify(t))
        .join(', ')}`,
    );
  }
  const settings = request.settings ?? {};
  checks.text('settings', JSON.stringify(settings));
  checks.done();
  return {
    agent: request.agent,
    name: text(request.name),
    personality: text(request.personality),
    job: text(request.job),
    userName: text(request.userName),
    tools,
    sceneMemory: request.sceneMemory,
    model: text(request.model),
    settings,
  };
}
