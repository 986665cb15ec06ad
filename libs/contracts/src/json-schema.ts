import { ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** Messages that the protobuf JSON mapping writes as something other than an object. */
const WELL_KNOWN: Readonly<Record<string, JsonSchema>> = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?s$' },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.Empty': { type: 'object' },
};

/** The JSON a scalar takes: 64-bit integers are strings on output and accepted as both. */
function scalarSchema(scalar: ScalarType): JsonSchema {
  switch (scalar) {
    case ScalarType.STRING:
      return { type: 'string' };
    case ScalarType.BOOL:
      return { type: 'boolean' };
    case ScalarType.BYTES:
      return { type: 'string', contentEncoding: 'base64' };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { type: 'number' };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: ['string', 'integer'], pattern: '^-?[0-9]+$' };
    default:
      return { type: 'integer' };
  }
}

const enumSchema = (desc: DescEnum): JsonSchema => ({ type: 'string', enum: desc.values.map((v) => v.name) });

/**
 * Writes JSON Schemas of protobuf messages as their protobuf JSON mapping (camelCase field
 * names, Timestamps as RFC 3339 strings, 64-bit integers as strings), each message once under
 * `refBase + its name`, so a document can hold them as components.
 */
export class JsonSchemas {
  /** Every message reached so far, by name. */
  readonly definitions: Record<string, JsonSchema> = {};

  constructor(private readonly refBase = '#/components/schemas/') {}

  /** A reference to the message's schema, written (with all it reaches) on first use. */
  ref(desc: DescMessage): JsonSchema {
    const known = WELL_KNOWN[desc.typeName];
    if (known) return known;
    if (!(desc.name in this.definitions)) {
      this.definitions[desc.name] = {}; // placeholder: a message may reach itself
      this.definitions[desc.name] = this.objectSchema(desc);
    }
    return { $ref: `${this.refBase}${desc.name}` };
  }

  private objectSchema(desc: DescMessage): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const field of desc.fields) properties[field.jsonName] = this.fieldSchema(field);
    return { type: 'object', title: desc.typeName, properties, additionalProperties: false };
  }

  private fieldSchema(field: DescField): JsonSchema {
    switch (field.fieldKind) {
      case 'scalar':
        return scalarSchema(field.scalar);
      case 'enum':
        return enumSchema(field.enum);
      case 'message':
        return this.ref(field.message);
      case 'list':
        return {
          type: 'array',
          items:
            field.listKind === 'scalar'
              ? scalarSchema(field.scalar)
              : field.listKind === 'enum'
                ? enumSchema(field.enum)
                : this.ref(field.message),
        };
      case 'map':
        return {
          type: 'object',
          additionalProperties:
            field.mapKind === 'scalar'
              ? scalarSchema(field.scalar)
              : field.mapKind === 'enum'
                ? enumSchema(field.enum)
                : this.ref(field.message),
        };
    }
  }
}
