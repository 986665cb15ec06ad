import { Inject, Injectable } from '@nestjs/common';
import { MAX_QUERY_CHARS, Rpcs, timestampDate, timestampFromDate } from '@engram/contracts';
import type { MemoryHitInput } from '@engram/context';
import { RpcClient, RpcError } from '@engram/messaging';
import { CONTEXT_BUILDER_CONFIG, type ContextBuilderConfig } from '../context-builder.config';

export type MemorySearchResult = { readonly hits: MemoryHitInput[]; readonly degradedReason: string | null };

/** Relevant memory for the current message, through retrieval's memory_search. */
@Injectable()
export class MemorySearchGateway {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONTEXT_BUILDER_CONFIG) private readonly config: ContextBuilderConfig,
  ) {}

  /**
   * Never fails: when retrieval is down or late the prompt goes without memory, and says why.
   * A prompt for a past moment (`asOf`) searches memory as it was then.
   */
  async search(
    tenantId: string,
    agent: string,
    message: string,
    asOf: Date | null,
  ): Promise<MemorySearchResult> {
    // Retrieval takes queries up to MAX_QUERY_CHARS; the start of a longer message says what it is about.
    const query = message.trim().slice(0, MAX_QUERY_CHARS);
    if (!query) return { hits: [], degradedReason: null };
    try {
      const response = await this.rpc.call(
        Rpcs.search,
        // Expanded as the RivetOS design has it: a summary or fact hit is followed by its most
        // relevant source messages; the layer keeps the best of them its share holds.
        // No access is recorded: a prompt built twice from the same store is the same prompt,
        // and memories shown every turn would otherwise boost themselves.
        {
          query,
          filters: { agent },
          topK: this.config.CONTEXT_MEMORY_HITS,
          expand: true,
          recordAccess: false,
          ...(asOf && { asOf: timestampFromDate(asOf) }),
        },
        { tenantId, timeoutMs: this.config.CONTEXT_SEARCH_TIMEOUT_MS },
      );
      return {
        hits: response.hits.map((h) => ({
          ref: `${h.kind}:${h.id}`,
          content: h.content,
          createdAt: h.createdAt ? timestampDate(h.createdAt) : null,
        })),
        degradedReason: response.degraded ? `memory search degraded: ${response.degradedReason}` : null,
      };
    } catch (error) {
      const reason = error instanceof RpcError ? `${error.code}: ${error.message}` : String(error);
      return { hits: [], degradedReason: `relevant memory left out: ${reason}` };
    }
  }
}
