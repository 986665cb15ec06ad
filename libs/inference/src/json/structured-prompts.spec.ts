import { repairConversation, schemaNameFor, withSchemaInstructions } from './structured-prompts';

describe('structured output prompts', () => {
  const schema = { type: 'object', properties: { a: { type: 'integer' } } };

  it('adds the schema to the system prompt, or puts one in front', () => {
    const withSystem = withSchemaInstructions(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      schema,
    );
    expect(withSystem).toHaveLength(2);
    expect(withSystem[0]!.content).toMatch(/^Be brief\.\n\nAnswer with a single JSON value/);
    expect(withSystem[0]!.content).toContain(JSON.stringify(schema));
    const without = withSchemaInstructions([{ role: 'user', content: 'hi' }], schema);
    expect(without.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('asks for corrected JSON after echoing the invalid answer and its problems', () => {
    const repaired = repairConversation([{ role: 'user', content: 'count' }], '{"a": "one"}', [
      '/a: must be integer',
    ]);
    expect(repaired.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repaired[1]!.content).toBe('{"a": "one"}');
    expect(repaired[2]!.content).toContain('- /a: must be integer');
    expect(repaired[2]!.content).toMatch(/only the corrected JSON/);
    expect(repairConversation([], 'x'.repeat(10_000), ['too long'])[0]!.content.length).toBeLessThan(8_100);
  });

  it('names the schema as OpenAI accepts it', () => {
    expect(schemaNameFor(schema)).toBe('output');
    expect(schemaNameFor({ title: 'Fact list (v2)' })).toBe('Fact_list_v2');
    expect(schemaNameFor(schema, 'facts')).toBe('facts');
    expect(schemaNameFor(schema, 'x'.repeat(100))).toHaveLength(64);
  });
});
