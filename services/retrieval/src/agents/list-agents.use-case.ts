import { Injectable } from '@nestjs/common';
import {
  optionalTimestamp,
  type ListAgentsRequest,
  type ListAgentsResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { AgentsRepository, type AgentSummaryRow } from './agents.repository';

export const DEFAULT_AGENTS_PAGE = 100;

/**
 * mem.rpc.agents.list: every agent of the tenant by name (a conversation, an open fact, a stored
 * profile or being memory makes one), with its profile and how much memory it has: what a
 * dashboard lists, in one read.
 */
@Injectable()
export class ListAgentsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly agents: AgentsRepository,
  ) {}

  async list(
    tenantId: string,
    request: ListAgentsRequest,
  ): Promise<MessageInitShape<typeof ListAgentsResponseSchema>> {
    const { agents, total } = await this.transactions.run(tenantId, (manager) =>
      this.agents.list(manager, { limit: request.limit || DEFAULT_AGENTS_PAGE, offset: request.offset }),
    );
    return { agents: agents.map(agentMessage), total: BigInt(total) };
  }
}

function agentMessage(row: AgentSummaryRow) {
  return {
    agent: row.agent,
    profile: row.has_profile
      ? {
          agent: row.agent,
          ...(row.name !== null && { name: row.name }),
          ...(row.personality !== null && { personality: row.personality }),
          ...(row.job !== null && { job: row.job }),
          ...(row.user_name !== null && { userName: row.user_name }),
          tools: row.tools ?? [],
          sceneMemory: row.scene_memory ?? false,
          ...(row.model !== null && { model: row.model }),
          settings: (row.settings ?? {}) as never,
          createdAt: optionalTimestamp(row.profile_created_at),
          updatedAt: optionalTimestamp(row.profile_updated_at),
        }
      : undefined,
    messages: BigInt(row.messages),
    conversations: BigInt(row.conversations),
    openFacts: BigInt(row.open_facts),
    sceneNodes: BigInt(row.scene_nodes),
    lastMessageAt: optionalTimestamp(row.last_message_at),
  };
}
