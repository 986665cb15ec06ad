import { Injectable } from '@nestjs/common';
import {
  parseItemRef,
  type MessageInitShape,
  type ExpandRequest,
  type ExpandResponseSchema,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { candidateKey } from '@engram/search';
import { TenantTransactions } from '@engram/store';
import { toSearchHit } from '../search/search-hit';
import { orderExpansion, type ItemKey } from './expand-order';
import { ExpandRepository } from './expand.repository';

type ExpandResponseInit = MessageInitShape<typeof ExpandResponseSchema>;

/** Levels below a summary an expansion drills down to unless asked otherwise: a root's messages. */
export const DEFAULT_EXPAND_DEPTH = 3;

/**
 * mem.rpc.expand: items by ref, each followed by what it stands for (a summary by its
 * subtree, a message by its neighbouring turns, a fact by its sources and successor), as
 * search hits without scores, read in one tenant transaction. Every ref must name an item
 * of the tenant's, or the call is NOT_FOUND naming the missing ones. It records no access:
 * a drill-down looks at what a search already returned. The request passed its rules
 * (libs/contracts expandRules) before it got here.
 */
@Injectable()
export class ExpandMemoryUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly store: ExpandRepository,
  ) {}

  async expand(tenantId: string, request: ExpandRequest): Promise<ExpandResponseInit> {
    const asked = request.refs.map(toItemKey);
    const depth = request.depth === 0 ? DEFAULT_EXPAND_DEPTH : request.depth;
    const { order, items } = await this.transactions.run(tenantId, async (manager) => {
      const order = orderExpansion(asked, await this.store.links(manager, tenantId, asked, depth), depth);
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
  if (!parsed) throw new Error(`${ref} passed expandRules but is not a ref`);
  return { kind: parsed.kind, id: BigInt(parsed.id).toString() };
}
