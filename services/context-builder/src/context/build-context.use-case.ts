import { Inject, Injectable } from '@nestjs/common';
import type { ContextBuildRequest, ContextBuildResponseSchema, MessageInitShape } from '@engram/contracts';
import { assembleContext, ContextBudgetError, isoDay, tokenCounterFor } from '@engram/context';
import { promptCeilingOf } from '@engram/memory-core';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import { CONTEXT_BUILDER_CONFIG, type ContextBuilderConfig } from '../context-builder.config';
import { ContextSourcesRepository } from './context-sources.repository';
import { contextRequest } from './context-request';
import { BeingRecallGateway } from './being-recall.gateway';
import { MemorySearchGateway } from './memory-search.gateway';

type ContextBuildResponseInit = MessageInitShape<typeof ContextBuildResponseSchema>;

/**
 * mem.rpc.context.build: what goes into the agent's next prompt, within its model's
 * budget, with what was left out and why.
 */
@Injectable()
export class BuildContextUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly sources: ContextSourcesRepository,
    private readonly memory: MemorySearchGateway,
    private readonly recall: BeingRecallGateway,
    @Inject(CONTEXT_BUILDER_CONFIG) private readonly config: ContextBuilderConfig,
  ) {}

  async build(tenantId: string, raw: ContextBuildRequest): Promise<ContextBuildResponseInit> {
    const request = contextRequest(raw);
    // Retrieval answers while the store is read.
    const searching = this.memory.search(tenantId, request.agent, request.currentMessage, request.asOf);
    const asOf = request.asOf ?? new Date();
    const today = isoDay(asOf);
    const loaded = await this.transactions.run(tenantId, async (manager) => {
      const found = await this.sources.agentAndConversation(manager, request.agent, request.conversation);
      if (!found.agent) {
        throw RpcError.notFound(`agent ${request.agent} is unknown: it has no profile and no conversation`, {
          agent: request.agent,
        });
      }
      if (!found.conversationFound) {
        throw RpcError.notFound(`conversation ${raw.conversationId} does not exist`, {
          conversationId: raw.conversationId,
        });
      }
      if (found.conversation && found.conversation.agent !== request.agent) {
        throw RpcError.invalidArgument(`conversation ${found.conversation.id} belongs to another agent`, {
          field: 'conversationId',
        });
      }
      const sources = await this.sources.conversationSources(manager, {
        agent: request.agent,
        conversationId: found.conversation?.id ?? null,
        today,
        asOf: request.asOf,
        recentLimit: this.config.CONTEXT_RECENT_MESSAGES,
      });
      const scene = found.agent.sceneMemory
        ? await this.sources.scene(manager, request.agent, today, request.asOf)
        : null;
      return { ...found, agent: found.agent, sources, scene };
    });
    // A being recalls what the message brings back, as in chat, once its scenes are read (so
    // the block shows them as they were before this message); a prompt for a past moment
    // recalls nothing (recall counts, and would change the store for a look back).
    const [memory, recall] = await Promise.all([
      searching,
      loaded.scene && !request.asOf && this.config.CONTEXT_BEING_RECALL === 'on'
        ? this.recall.recall(tenantId, request.agent, request.currentMessage)
        : { recalled: null, degradedReason: null },
    ]);
    const degradedReason =
      [memory.degradedReason, recall.degradedReason].filter((r) => r !== null).join('; ') || null;

    const model = request.model || loaded.conversation?.model || loaded.agent.model || '';
    const modelCeiling = promptCeilingOf(model, this.config.MODEL_WINDOWS);
    const ceilingTokens = request.budgetTokens ? Math.min(request.budgetTokens, modelCeiling) : modelCeiling;
    const counter = tokenCounterFor(model);
    let assembly;
    try {
      assembly = assembleContext(
        {
          asOf,
          currentMessage: request.currentMessage,
          agent: loaded.agent,
          ...loaded.sources,
          memory: memory.hits,
          scene: loaded.scene,
          recalled: recall.recalled,
        },
        { ceilingTokens, shares: this.config.layerShares, counter },
      );
    } catch (error) {
      if (error instanceof ContextBudgetError) {
        throw RpcError.failedPrecondition(error.message, {
          requiredTokens: error.requiredTokens,
          ceilingTokens: error.ceilingTokens,
        });
      }
      throw error;
    }
    return {
      blocks: assembly.blocks.map((b) => ({
        role: b.role,
        layer: b.layer,
        text: b.text,
        tokens: b.tokens,
        sourceIds: [...b.sourceIds],
      })),
      cut: assembly.cut.map((c) => ({
        layer: c.layer,
        reason: c.reason,
        tokens: c.tokens,
        sourceIds: [...c.sourceIds],
      })),
      totalTokens: assembly.totalTokens,
      ceilingTokens: assembly.ceilingTokens,
      prefixHash: assembly.prefixHash,
      currentMessageTokens: assembly.currentMessageTokens,
      exactTokens: counter.exact,
      model,
      conversationId: loaded.conversation?.id ?? '',
      degraded: degradedReason !== null,
      degradedReason: degradedReason ?? '',
    };
  }
}
