import {
  AccessRecordedSchema,
  create,
  EmbeddingWrittenSchema,
  encodeMessage,
  FactUpsertedSchema,
  MemoryErasedSchema,
  MessageStoredSchema,
  PatrolCompletedSchema,
  timestampFromDate,
} from '@engram/contracts';
import { indexChangeOf } from './index-change';

describe('indexChangeOf', () => {
  it('names the items an event changed, by kind, for the tenant of its subject', () => {
    const stored = encodeMessage(
      MessageStoredSchema,
      create(MessageStoredSchema, { tenantId: 'acme', messages: [{ id: '12' }, { id: '13' }] }),
    );
    expect(indexChangeOf('mem.message.stored.acme', stored)).toEqual({
      tenantId: 'acme',
      kind: 'items',
      message: ['12', '13'],
    });
    const superseded = encodeMessage(
      FactUpsertedSchema,
      create(FactUpsertedSchema, {
        tenantId: 'acme',
        factId: '4',
        operation: 'superseded',
        supersededBy: '9',
      }),
    );
    expect(indexChangeOf('mem.fact.upserted.acme', superseded)).toEqual({
      tenantId: 'acme',
      kind: 'items',
      fact: ['4', '9'],
    });
    const vectors = encodeMessage(
      EmbeddingWrittenSchema,
      create(EmbeddingWrittenSchema, { tenantId: 'acme', kind: 'summary', ids: ['5'] }),
    );
    expect(indexChangeOf('mem.embedding.written.acme', vectors)).toEqual({
      tenantId: 'acme',
      kind: 'items',
      vectors: [{ kind: 'summary', id: '5' }],
    });
    const messageVectors = encodeMessage(
      EmbeddingWrittenSchema,
      create(EmbeddingWrittenSchema, { tenantId: 'acme', kind: 'message', ids: ['7'] }),
    );
    expect(indexChangeOf('mem.embedding.written.acme', messageVectors)).toEqual({
      tenantId: 'acme',
      kind: 'items',
      vectors: [{ kind: 'message', id: '7' }],
      message: ['7'],
    });
  });

  it('counts what a search returned as accessed at its time, and ignores what the index does not hold', () => {
    const at = new Date('2026-11-24T10:00:00.123Z');
    const accessed = encodeMessage(
      AccessRecordedSchema,
      create(AccessRecordedSchema, {
        tenantId: 'acme',
        refs: ['message:1'],
        accessedAt: timestampFromDate(at),
      }),
    );
    expect(indexChangeOf('mem.access.recorded.acme', accessed)).toEqual({
      tenantId: 'acme',
      kind: 'accessed',
      refs: ['message:1'],
      atUs: at.getTime() * 1000,
    });
    const patrol = encodeMessage(PatrolCompletedSchema, create(PatrolCompletedSchema, { tenantId: 'acme' }));
    expect(indexChangeOf('mem.patrol.completed.acme', patrol)).toBeNull();
  });

  it('drops the tenant of an erasure whole, whatever its scope', () => {
    const erased = encodeMessage(
      MemoryErasedSchema,
      create(MemoryErasedSchema, {
        tenantId: 'acme',
        erasureId: '3',
        scope: 'conversation',
        conversationId: '12',
      }),
    );
    expect(indexChangeOf('mem.memory.erased.acme', erased)).toEqual({ tenantId: 'acme', kind: 'erased' });
  });
});
