import {
  AccessRecordedSchema,
  decodeMessage,
  EmbeddingWrittenSchema,
  FactUpsertedSchema,
  MessageStoredSchema,
  SummaryCreatedSchema,
  tenantOfSubject,
  timestampDate,
  type ItemKind,
} from '@engram/contracts';

/** What an event on MEMORY_EVENTS changed in a tenant's index: items to read again, or accesses to count. */
export type IndexChange =
  | {
      readonly tenantId: string;
      readonly kind: 'items';
      readonly message?: string[];
      readonly summary?: string[];
      readonly fact?: string[];
      /** Items whose vectors were written. */
      readonly vectors?: Array<{ kind: ItemKind; id: string }>;
    }
  | { readonly tenantId: string; readonly kind: 'accessed'; readonly refs: string[]; readonly atUs: number }
  /** Some of the tenant's memory was erased: its index is dropped whole (the next search loads it again). */
  | { readonly tenantId: string; readonly kind: 'erased' };

/**
 * The change an event announces (null: nothing the index holds, e.g. a compaction or a patrol).
 * A message, summary or fact event names items to read again; a vector written names its items
 * and their vectors (a message is read again too: a tool call's synthesised content comes with its
 * vector); an access names what a search returned; an erasure drops the tenant's index (its
 * event names the scope, not the rows, and rows never leave an index one by one).
 */
export function indexChangeOf(subject: string, data: Uint8Array): IndexChange | null {
  const tenantId = tenantOfSubject(subject);
  const kind = subject.split('.').slice(1, 3).join('.');
  switch (kind) {
    case 'message.stored': {
      const e = decodeMessage(MessageStoredSchema, data, { strict: false });
      return { tenantId, kind: 'items', message: e.messages.map((m) => m.id) };
    }
    case 'summary.created': {
      const e = decodeMessage(SummaryCreatedSchema, data, { strict: false });
      return { tenantId, kind: 'items', summary: [e.summaryId] };
    }
    case 'fact.upserted': {
      const e = decodeMessage(FactUpsertedSchema, data, { strict: false });
      return { tenantId, kind: 'items', fact: [e.factId, ...(e.supersededBy ? [e.supersededBy] : [])] };
    }
    case 'embedding.written': {
      const e = decodeMessage(EmbeddingWrittenSchema, data, { strict: false });
      const kind = e.kind;
      if (kind !== 'message' && kind !== 'summary' && kind !== 'fact') return null;
      const vectors = e.ids.map((id) => ({ kind: kind as ItemKind, id }));
      // A message's vector may come with the content synthesised for its tool call: read it again too.
      return { tenantId, kind: 'items', vectors, ...(kind === 'message' && { message: [...e.ids] }) };
    }
    case 'access.recorded': {
      const e = decodeMessage(AccessRecordedSchema, data, { strict: false });
      const at = e.accessedAt ? timestampDate(e.accessedAt).getTime() : Date.now();
      return { tenantId, kind: 'accessed', refs: [...e.refs], atUs: at * 1000 };
    }
    case 'memory.erased':
      return { tenantId, kind: 'erased' };
    default:
      return null;
  }
}
