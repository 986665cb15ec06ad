import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { errorMessage, isDependencyFailure } from '@engram/messaging';
import { DataSource, TenantTransactions, withAdvisoryLocks } from '@engram/store';
import type { Context } from '@engram/telemetry';
import { EmbedderGertyGateway } from '../gateway/embedder-gerty.gateway';
import { EmbedItemsUseCase } from '../vectors/embed-items.use-case';
import { ToolCallRepository } from './tool-call.repository';

export interface ToolCallRef {
  readonly tenantId: string;
  readonly messageId: string;
}

export type DescribeOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly reason: string; readonly dependencyDown: boolean };

/** Descriptions asked of Gerty at once (its own admission bounds the rest). */
const AT_ONCE = 16;

/**
 * Tool synthesis: tool calls stored without content get a one-sentence, past-tense
 * description as their searchable content (Gerty writes it), then their vectors. A batch at a time:
 * one lock statement, one read and one write per tenant, one embedding pass. Safe to
 * run again: a described call is only embedded (if it is not yet). Two work items for
 * the same call (a duplicate replaces an item in flight) run one after the other, so
 * the model is asked once. A call Gerty cannot describe fails alone.
 */
@Injectable()
export class DescribeToolCallsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TenantTransactions,
    private readonly toolCalls: ToolCallRepository,
    private readonly gateway: EmbedderGertyGateway,
    private readonly embedItems: EmbedItemsUseCase,
  ) {}

  describe(refs: readonly ToolCallRef[], traceContext?: Context): Promise<DescribeOutcome[]> {
    // Lock and request keys shared with running replicas keep the wire spelling "toolsynth".
    const key = (r: ToolCallRef) => `toolsynth/${r.tenantId}/${r.messageId}`;
    return withAdvisoryLocks(this.dataSource, refs.map(key), async () => {
      const failures = new Map<string, DescribeOutcome>();
      const byTenant = new Map<string, Set<string>>();
      for (const ref of refs) {
        if (!byTenant.has(ref.tenantId)) byTenant.set(ref.tenantId, new Set());
        byTenant.get(ref.tenantId)!.add(ref.messageId);
      }

      for (const [tenantId, idSet] of byTenant) {
        const ids = [...idSet];
        const calls = await this.transactions.run(tenantId, (m) => this.toolCalls.find(m, ids));
        const pending = calls.filter((c) => c.content === '' && c.toolName);
        const described: Array<{ id: string; text: string }> = [];
        for (let i = 0; i < pending.length; i += AT_ONCE) {
          const slice = pending.slice(i, i + AT_ONCE);
          const results = await Promise.allSettled(
            slice.map((c) => this.gateway.describeToolCall(c.toolName!, c.toolArgs)),
          );
          results.forEach((result, k) => {
            const call = slice[k]!;
            if (result.status === 'fulfilled') described.push({ id: call.id, text: result.value });
            else failures.set(key({ tenantId, messageId: call.id }), failureOf(result.reason));
          });
        }
        await this.transactions.run(tenantId, (m) => this.toolCalls.writeDescriptions(m, described));
        const embeddable = ids.filter((id) => !failures.has(key({ tenantId, messageId: id })));
        await this.embedItems.embed([
          {
            key: `toolsynth:${tenantId}:${createHash('sha1').update(embeddable.join(',')).digest('hex')}`,
            tenantId,
            kind: 'message',
            ids: embeddable,
            ...(traceContext && { traceContext }),
          },
        ]);
      }
      return refs.map((ref) => failures.get(key(ref)) ?? { kind: 'done' });
    });
  }
}

function failureOf(error: unknown): DescribeOutcome {
  return { kind: 'failed', reason: errorMessage(error), dependencyDown: isDependencyFailure(error) };
}
