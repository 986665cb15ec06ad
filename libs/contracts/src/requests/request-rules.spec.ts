import { create } from '@bufbuild/protobuf';
import { z } from 'zod';
import { PutSkillsRequestSchema } from '../gen/memory/v1/agents_pb';
import { Rpcs, type RpcSpec } from '../rpcs';
import { checkRequest, fieldPath, rule, type RequestRules } from './request-rules';

describe('fieldPath', () => {
  it('spells a path as callers write the field', () => {
    expect(fieldPath(['agent'])).toBe('agent');
    expect(fieldPath(['filters', 'conversationId'])).toBe('filters.conversationId');
    expect(fieldPath(['files', 2, 'name'])).toBe('files[2].name');
    expect(fieldPath([])).toBe('');
  });
});

describe('checkRequest', () => {
  const rules = z
    .object({
      agent: rule(z.string(), (agent, field) => (agent === '' ? `${field} is required` : undefined)),
      files: z.array(
        z.object({
          name: rule(z.string(), (name, field) => (name === '' ? `${field} is empty` : undefined)),
          markdown: rule(z.string(), (md, field) => (md.length > 3 ? `${field} is too long` : undefined)),
        }),
      ),
    })
    .superRefine((request, ctx) => {
      if (request.files.length > 1)
        ctx.addIssue({ code: 'custom', path: ['agent'], message: 'one file per agent' });
    }) satisfies RequestRules<typeof PutSkillsRequestSchema>;
  const spec = { rules };

  it('answers nothing for a valid request', () => {
    expect(
      checkRequest(
        spec,
        create(PutSkillsRequestSchema, { agent: 'a', files: [{ name: 'x', markdown: 'y' }] }),
      ),
    ).toEqual([]);
  });

  it('answers one violation per field, the first its rules find, naming nested fields by their path', () => {
    const request = create(PutSkillsRequestSchema, {
      agent: '',
      files: [
        { name: '', markdown: 'long text' },
        { name: 'ok', markdown: 'y' },
      ],
    });
    expect(checkRequest(spec, request)).toEqual([
      { field: 'agent', description: 'agent is required' },
      { field: 'files[0].name', description: 'files[0].name is empty' },
      { field: 'files[0].markdown', description: 'files[0].markdown is too long' },
    ]);
  });

  it('reports a rule over several fields on the field it blames', () => {
    const request = create(PutSkillsRequestSchema, {
      agent: 'a',
      files: [
        { name: 'x', markdown: '' },
        { name: 'y', markdown: '' },
      ],
    });
    expect(checkRequest(spec, request)).toEqual([{ field: 'agent', description: 'one file per agent' }]);
  });
});

describe('Rpcs', () => {
  it.each(Object.entries(Rpcs) as Array<[string, RpcSpec]>)(
    '%s has rules, which blame fields its request has',
    (_, spec) => {
      expect(spec.rules).toBeInstanceOf(z.ZodType);
      const fields = spec.request.fields.map((f) => f.jsonName);
      for (const violation of checkRequest(spec, create(spec.request)))
        expect(fields).toContain(violation.field.split(/[.[]/)[0]);
    },
  );
});
