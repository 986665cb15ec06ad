import { Injectable } from '@nestjs/common';
import {
  parseItemRef,
  type MessageInitShape,
  type RecallRequest,
  type RecallResponseSchema,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { candidateKey } from '@engram/search';
import { TenantTransactions } from '@engram/store';
import { toSearchHit } from '../search/search-hit';
import { orderRecall, type ItemKey } from './recall-order';
import { RecallRepository } from './recall.repository';

type RecallResponseInit = MessageInitShape<typeof RecallResponseSchema>;

/** Levels below a summary a recall drills down to unless asked otherwise: a root's messages. */
export const DEFAULT_RECALL_DEPTH = 3;

/**
 * memory_recall: items by ref, each followed by what it stands for (a summary by its
 * subtree, a message by its neighbouring turns, a fact by its sources and successor), as
 * search hits without scores, read in one tenant transaction. Every ref must name an item
 * of the tenant's, or the call is NOT_FOUND naming the missing ones. It records no access:
 * a drill-down looks at what a search already returned. The request passed its rules
 * (libs/contracts recallRules) before it got here.
 */
@Injectable()
export class RecallMemoryUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly store: RecallRepository,
  ) {}

  async recall(tenantId: string, request: RecallRequest): Promise<RecallResponseInit> {
    const asked = request.refs.map(toItemKey);
    const depth = request.depth === 0 ? DEFAULT_RECALL_DEPTH : request.depth;
    const { order, items } = await this.transactions.run(tenantId, async (manager) => {
      const order = orderRecall(asked, await this.store.links(manager, tenantId, asked, depth), depth);
      return { order, items: await this.store.items(manager, tenantId, order.slots) };
    });
    const byRef = new Map(items.map((item) => [candidateKey(item.kind, String(item.id)), item]));
    const missing = [
      ...new Set(request.refs.filter((_, i) => !byRef.has(candidateKey(asked[i]!.kind, asked[i]!.id)))),
    ];
    if (missing.length > 0) throw RpcError.notFound(`${missing.join(', ')} not found`, { refs: missing });
    return {
      items: order.slots.flatMap((slot) => {
        const item = byRef.get(candidateKey(slot.kind, slot.id));
        return item ? [toSearchHit({ ...slot, ranked: null, item })] : [];
      }),
      truncated: order.truncated,
    };
  }
}

/** A ref the rules let through, with its id as the store writes it ("message:007" is message 7). */
function toItemKey(ref: string): ItemKey {
  const parsed = parseItemRef(ref);
  if (!parsed) throw new Error(`${ref} passed recallRules but is not a ref`);
  return { kind: parsed.kind, id: BigInt(parsed.id).toString() };
}
