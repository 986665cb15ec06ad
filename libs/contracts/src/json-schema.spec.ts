import Ajv2020 from 'ajv/dist/2020';
import { JsonSchemas } from './json-schema';
import { SearchRequestSchema, SearchResponseSchema, StatsResponseSchema } from './gen/memory/v1/retrieval_pb';
import { TurnEventSchema } from './gen/memory/v1/turn_pb';

/** Validates JSON against a message's schema, with every definition it reaches. */
function validator(schemas: JsonSchemas, name: string) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'engram', $defs: schemas.definitions });
  return ajv.compile({ $ref: `engram#/$defs/${name}` });
}

describe('JsonSchemas', () => {
  it('describes a message as its protobuf JSON: camelCase names, Timestamps as date-time strings', () => {
    const schemas = new JsonSchemas('#/$defs/');
    expect(schemas.ref(SearchRequestSchema)).toEqual({ $ref: '#/$defs/SearchRequest' });
    const request = schemas.definitions.SearchRequest as { properties: Record<string, unknown> };
    expect(Object.keys(request.properties)).toEqual(
      expect.arrayContaining(['query', 'mode', 'topK', 'filters', 'recordAccess']),
    );
    expect(schemas.definitions.SearchFilters).toMatchObject({
      properties: { from: { type: 'string', format: 'date-time' }, roles: { type: 'array' } },
    });
  });

  it('accepts real requests and refuses unknown fields and wrong types', () => {
    const schemas = new JsonSchemas('engram#/$defs/');
    schemas.ref(SearchRequestSchema);
    const valid = validator(schemas, 'SearchRequest');
    expect(
      valid({ query: 'metric units', topK: 5, filters: { agent: 'bot', from: '2026-01-01T00:00:00Z' } }),
    ).toBe(true);
    expect(valid({ query: 'x', topk: 5 })).toBe(false);
    expect(valid({ query: 7 })).toBe(false);
  });

  it('writes 64-bit integers as strings and maps as objects, and every message once', () => {
    const schemas = new JsonSchemas('engram#/$defs/');
    schemas.ref(StatsResponseSchema);
    schemas.ref(SearchResponseSchema);
    schemas.ref(TurnEventSchema);
    const valid = validator(schemas, 'StatsResponse');
    expect(valid({ messages: '12', factsByCategory: { preference: '3' } })).toBe(true);
    expect(valid({ factsByCategory: { preference: true } })).toBe(false);
    expect(Object.keys(schemas.definitions)).toEqual(
      expect.arrayContaining(['SearchHit', 'TurnEvent', 'Provenance']),
    );
  });
});
