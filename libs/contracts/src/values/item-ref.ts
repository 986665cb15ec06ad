import { isRowId } from './row-id';
import { ITEM_KINDS, type ItemKind } from './vocabulary';

/** The item a ref names (`message:123`, `summary:45`, `fact:6`); null when the text is not a ref. */
export function parseItemRef(ref: string): { readonly kind: ItemKind; readonly id: string } | null {
  const colon = ref.indexOf(':');
  const kind = ref.slice(0, colon);
  const id = ref.slice(colon + 1);
  if (colon < 0 || !(ITEM_KINDS as readonly string[]).includes(kind) || !isRowId(id)) return null;
  return { kind: kind as ItemKind, id };
}
