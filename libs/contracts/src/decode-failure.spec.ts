import { decodeMessage } from './codec';
import { undecodableField } from './decode-failure';
import { ContextBuildRequestSchema } from './gen/memory/v1/context_pb';
import { SearchRequestSchema } from './gen/memory/v1/retrieval_pb';
import { PutWorkspaceRequestSchema } from './gen/memory/v1/agents_pb';

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('undecodableField', () => {
  it('names a date-time that is not one, top level or nested, as a field violation', () => {
    for (const asOf of ['yesterday', '2026-13-01T00:00:00Z', '10000-01-01T00:00:00Z', 12]) {
      const body = bytes({ query: 'cats', asOf });
      expect(() => decodeMessage(SearchRequestSchema, body, { strict: true })).toThrow();
      expect(undecodableField(SearchRequestSchema, body)).toEqual({
        field: 'asOf',
        description: `asOf must be an RFC 3339 date-time such as "2026-03-01T12:00:00Z" (got ${JSON.stringify(asOf)})`,
      });
    }
    expect(undecodableField(SearchRequestSchema, bytes({ query: 'x', filters: { from: 'soon' } }))).toEqual({
      field: 'filters.from',
      description: 'filters.from must be an RFC 3339 date-time such as "2026-03-01T12:00:00Z" (got "soon")',
    });
    expect(undecodableField(ContextBuildRequestSchema, bytes({ agent: 'a', asOf: 'now' }))?.field).toBe(
      'asOf',
    );
  });

  it('names a wrong type, an unknown field and a bad list item', () => {
    expect(undecodableField(SearchRequestSchema, bytes({ query: 42 }))).toMatchObject({ field: 'query' });
    expect(undecodableField(SearchRequestSchema, bytes({ query: 'x', topk: 3 }))).toEqual({
      field: 'topk',
      description: 'topk is not a field of SearchRequest',
    });
    expect(
      undecodableField(
        PutWorkspaceRequestSchema,
        bytes({ agent: 'a', documents: [{ name: 'SOUL.md' }, { name: 'x', content: 7 }] }),
      ),
    ).toMatchObject({ field: 'documents[1].content' });
  });

  it('blames nothing when the payload is no JSON object or decodes', () => {
    expect(undecodableField(SearchRequestSchema, bytes('{"query": '))).toBeNull();
    expect(undecodableField(SearchRequestSchema, bytes([1, 2]))).toBeNull();
    expect(
      undecodableField(SearchRequestSchema, bytes({ query: 'x', asOf: '2026-03-01T12:00:00Z' })),
    ).toBeNull();
  });
});
