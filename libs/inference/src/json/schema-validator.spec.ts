import { JsonSchemaValidator } from './schema-validator';

describe('JsonSchemaValidator', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer', minimum: 0 },
      mood: { enum: ['happy', 'sad'] },
      when: { type: 'string', format: 'date-time' },
    },
    required: ['name', 'age'],
    additionalProperties: false,
  };

  it('accepts valid values and lists every problem of an invalid one', () => {
    const validator = new JsonSchemaValidator();
    expect(validator.check(schema, { name: 'Ada', age: 36, when: 'not checked' })).toEqual({ valid: true });
    const result = validator.check(schema, { age: -1.5, mood: 'meh', extra: true });
    expect(result.valid).toBe(false);
    expect(!result.valid && result.problems).toEqual(
      expect.arrayContaining([
        "(root): must have required property 'name'",
        '(root): must NOT have additional properties ("extra")',
        '/age: must be integer',
        '/age: must be >= 0',
        '/mood: must be equal to one of the allowed values: "happy", "sad"',
      ]),
    );
  });

  it('reports a schema that does not compile', () => {
    const validator = new JsonSchemaValidator();
    expect(validator.schemaProblem(schema)).toBeUndefined();
    expect(validator.schemaProblem({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toMatch(
      /type/,
    );
  });

  it('understands draft 2020-12 schemas', () => {
    const validator = new JsonSchemaValidator();
    const tuple = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: false,
    };
    expect(validator.check(tuple, ['a'])).toEqual({ valid: true });
    expect(validator.check(tuple, ['a', 'b']).valid).toBe(false);
  });
});
