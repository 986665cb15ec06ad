import { Inject, Injectable } from '@nestjs/common';
import { MAX_RECALL_MESSAGE_CHARS, Rpcs } from '@engram/contracts';
import type { RecalledInput } from '@engram/context';
import { RpcClient, RpcError } from '@engram/messaging';
import { CONTEXT_BUILDER_CONFIG, type ContextBuilderConfig } from '../context-builder.config';

export type BeingRecallResult = {
  readonly recalled: RecalledInput | null;
  readonly degradedReason: string | null;
};

/** A being's recall of the current message, through the patrol's mem.rpc.being.recall (the design's recall during chat). */
@Injectable()
export class BeingRecallGateway {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONTEXT_BUILDER_CONFIG) private readonly config: ContextBuilderConfig,
  ) {}

  /**
   * Never fails: when the patrol is down or late the prompt goes without recalled scenes, and
   * says why. What comes back counts as recalled (reactivation +1), as when the runtime asks.
   */
  async recall(tenantId: string, agent: string, message: string): Promise<BeingRecallResult> {
    const text = message.trim().slice(0, MAX_RECALL_MESSAGE_CHARS);
    if (!text) return { recalled: null, degradedReason: null };
    try {
      const answer = await this.rpc.call(
        Rpcs.beingRecall,
        { agent, message: text },
        { tenantId, timeoutMs: this.config.CONTEXT_SEARCH_TIMEOUT_MS },
      );
      return {
        recalled: answer.text ? { text: answer.text, nodeIds: answer.nodes.map((n) => n.id) } : null,
        degradedReason: null,
      };
    } catch (error) {
      const reason = error instanceof RpcError ? `${error.code}: ${error.message}` : String(error);
      return { recalled: null, degradedReason: `recalled scenes left out: ${reason}` };
    }
  }
}
