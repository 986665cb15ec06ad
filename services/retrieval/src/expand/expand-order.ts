import { candidateKey, type ItemKind } from '@engram/search';

/** Most items one expansion answers; every asked item is among them (at most MAX_EXPAND_REFS). */
export const MAX_EXPAND_ITEMS = 500;

/** An item by kind and id, as a ref names it ("summary:45"). */
export interface ItemKey {
  readonly kind: ItemKind;
  readonly id: string;
}

/** Where the asked items lead, as the store holds it; each list in its order. */
export interface ExpansionLinks {
  /** A summary's id → its children (a root's or branch's summaries, a leaf's messages) by ordinal. */
  readonly children: ReadonlyMap<string, readonly ItemKey[]>;
  /** A message's id → the ids of the turns before and after it, in the conversation's order. */
  readonly neighbours: ReadonlyMap<
    string,
    { readonly before: readonly string[]; readonly after: readonly string[] }
  >;
  /** A fact's id → its source messages in the conversation's order, then the fact that superseded it. */
  readonly factLinks: ReadonlyMap<string, readonly ItemKey[]>;
}

/** One item of the answer, in order: `expandedFrom` is the ref it was reached from, "" when asked. */
export interface ExpansionSlot extends ItemKey {
  readonly expandedFrom: string;
}

export interface ExpansionOrder {
  readonly slots: ExpansionSlot[];
  /** Expansions were left out to keep the answer within the limit. */
  readonly truncated: boolean;
}

/**
 * The answer's order: each asked item with its expansion (a summary's subtree depth-first
 * down to `depth` levels, a message inside its neighbours, a fact before its sources and
 * successor). An item is listed once, at its first place. At most `limit` items: every asked
 * item is kept, expansions stop where they would crowd one out, and nothing is expanded
 * from an item left out (so every `expandedFrom` names an item of the answer).
 */
export function orderExpansion(
  asked: readonly ItemKey[],
  links: ExpansionLinks,
  depth: number,
  limit = MAX_EXPAND_ITEMS,
): ExpansionOrder {
  const slots: ExpansionSlot[] = [];
  const placed = new Set<string>();
  const waiting = new Set(asked.map((a) => candidateKey(a.kind, a.id)));
  let truncated = false;

  /** Places the item unless it is there already; whether it is in the answer now. */
  const put = (item: ItemKey, expandedFrom: string): boolean => {
    const ref = candidateKey(item.kind, item.id);
    if (placed.has(ref)) return true;
    if (!waiting.has(ref) && slots.length + waiting.size >= limit) {
      truncated = true;
      return false;
    }
    placed.add(ref);
    waiting.delete(ref);
    slots.push({ kind: item.kind, id: item.id, expandedFrom });
    return true;
  };
  const drill = (summary: ItemKey, levels: number): void => {
    if (levels === 0) return;
    const ref = candidateKey(summary.kind, summary.id);
    for (const child of links.children.get(summary.id) ?? []) {
      if (put(child, ref) && child.kind === 'summary') drill(child, levels - 1);
    }
  };

  for (const item of asked) {
    const ref = candidateKey(item.kind, item.id);
    if (item.kind === 'summary') {
      put(item, '');
      drill(item, depth);
    } else if (item.kind === 'message') {
      const around = links.neighbours.get(item.id);
      for (const id of around?.before ?? []) put({ kind: 'message', id }, ref);
      put(item, '');
      for (const id of around?.after ?? []) put({ kind: 'message', id }, ref);
    } else {
      put(item, '');
      for (const link of links.factLinks.get(item.id) ?? []) put(link, ref);
    }
  }
  return { slots, truncated };
}
