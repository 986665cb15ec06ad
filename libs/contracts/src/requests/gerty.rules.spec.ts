import type { MessageInitShape } from '@bufbuild/protobuf';
import { Rpcs } from '../rpcs';
import { violationsOf as violations } from './request-rules';

describe('gerty.rpc.embed rules', () => {
  it('accept texts for a tenant or none, and refuse a tenant id that is no token or too many texts', () => {
    expect(violations(Rpcs.gertyEmbed, { texts: ['a', 'b'], tenantId: 'acme' })).toEqual({});
    expect(violations(Rpcs.gertyEmbed, { texts: [] })).toEqual({});
    expect(violations(Rpcs.gertyEmbed, { texts: ['a'], tenantId: 'a.b' })).toEqual({
      tenantId: 'tenantId must be 1-64 letters, digits, "_" or "-" (got "a.b")',
    });
    expect(violations(Rpcs.gertyEmbed, { texts: Array.from({ length: 2049 }, () => 'x') })).toEqual({
      texts: 'at most 2048 texts per request (got 2049)',
    });
  });
});

describe('gerty.rpc.complete rules', () => {
  const complete = (init: MessageInitShape<typeof Rpcs.gertyComplete.request>) =>
    violations(Rpcs.gertyComplete, init);

  it('accept a task, or chat messages in the three roles', () => {
    expect(complete({ task: 'summarize', taskInput: {} })).toEqual({});
    for (const task of [
      'consolidate_scenes',
      'split_cluster',
      'write_diary',
      'write_think_notes',
      'repair_scene',
    ])
      expect(complete({ task, taskInput: {} })).toEqual({});
    expect(
      complete({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
        tenantId: 'acme',
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(complete({ task: 'translate' })).toEqual({
      task:
        'task must be one of summarize, extract_facts, describe_tool_call, answer_from_memory, ' +
        'consolidate_scenes, split_cluster, write_diary, write_think_notes, repair_scene (got "translate")',
    });
    expect(complete({})).toEqual({ messages: 'give messages, or a task' });
    expect(complete({ messages: [{ role: 'user' }, { role: 'tool' }] })).toEqual({
      'messages[1].role': 'messages[1].role must be system, user or assistant (got "tool")',
    });
    expect(complete({ task: 'summarize', tenantId: 'no tenant' })).toHaveProperty('tenantId');
  });
});

describe('gerty.rpc.models.list rules', () => {
  it('accept the request, which has no fields', () => {
    expect(violations(Rpcs.gertyModelsList, {})).toEqual({});
  });
});

describe('gerty.rpc.keys.put rules', () => {
  it('accept a key (or an empty one, which removes it) for a named model, and refuse a key for no model', () => {
    expect(violations(Rpcs.gertyKeysPut, { model: 'openai-chat', apiKey: 'sk-x' })).toEqual({});
    expect(violations(Rpcs.gertyKeysPut, { model: 'openai-chat' })).toEqual({});
    expect(violations(Rpcs.gertyKeysPut, { apiKey: 'sk-x' })).toEqual({ model: 'model is required' });
  });
});
