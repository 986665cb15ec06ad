import { create, SaveRequestSchema, type MessageInitShape } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { factToSave, MAX_FACT_CHARS } from './fact-to-save';

const request = (init: MessageInitShape<typeof SaveRequestSchema>) => create(SaveRequestSchema, init);

function failure(init: MessageInitShape<typeof SaveRequestSchema>): RpcError {
  try {
    factToSave(request(init));
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error('expected the save to be refused');
}

describe('factToSave', () => {
  it('fills in the defaults: general, sticky, importance by category', () => {
    expect(factToSave(request({ agent: 'helper', content: '  The user is called Ada.  ' }))).toEqual({
      agent: 'helper',
      content: 'The user is called Ada.',
      category: 'general',
      lifetime: 'sticky',
      importance: 4,
      conversationId: null,
      sourceMessageIds: [],
    });
    expect(factToSave(request({ agent: 'helper', content: 'x', category: 'Correction' }))).toMatchObject({
      category: 'correction',
      importance: 9,
    });
  });

  it('keeps what was given', () => {
    expect(
      factToSave(
        request({
          agent: 'helper',
          content: 'Deploys happen on Fridays',
          category: 'decision',
          lifetime: 'project_context',
          importance: 3,
          conversationId: '12',
          sourceMessageIds: ['5', '6', '5'],
        }),
      ),
    ).toMatchObject({
      category: 'decision',
      lifetime: 'project_context',
      importance: 3,
      conversationId: '12',
      sourceMessageIds: ['5', '6'],
    });
  });

  it('reports every problem at once, each as a field violation', () => {
    const error = failure({
      agent: '',
      content: ' ',
      category: 'gossip',
      lifetime: 'forever',
      importance: 11,
      conversationId: 'abc',
      sourceMessageIds: ['1', 'x'],
    });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details['fieldViolations']).toEqual([
      { field: 'agent', description: 'agent is required' },
      { field: 'content', description: 'content is required' },
      {
        field: 'category',
        description: expect.stringMatching(/^category must be one of preference, fact, .* \(got "gossip"\)$/),
      },
      {
        field: 'lifetime',
        description: expect.stringMatching(
          /^lifetime must be one of sticky, user_preference, project_context, learned_pattern/,
        ),
      },
      { field: 'importance', description: expect.stringMatching(/between 1 and 10/) },
      { field: 'conversationId', description: '"abc" is not a conversation id' },
      { field: 'sourceMessageIds', description: 'not message ids: "x"' },
    ]);
    expect(error.message).toMatch(/^invalid save: agent is required; content is required; /);
  });

  it('bounds the content and refuses what Postgres text cannot hold', () => {
    expect(factToSave(request({ agent: 'a', content: '€'.repeat(MAX_FACT_CHARS) })).content).toHaveLength(
      MAX_FACT_CHARS,
    );
    expect(failure({ agent: 'a', content: 'x'.repeat(MAX_FACT_CHARS + 1) }).message).toMatch(
      /4001 characters long; at most 4000/,
    );
    expect(failure({ agent: 'a', content: 'a\u0000b' }).message).toMatch(/NUL/);
  });

  it('refuses an agent name that could not be a subject token, and too many sources', () => {
    expect(failure({ agent: 'my agent', content: 'x' }).message).toMatch(/agent must be 1-64 letters/);
    expect(
      failure({
        agent: 'a',
        content: 'x',
        sourceMessageIds: Array.from({ length: 101 }, (_, i) => String(i + 1)),
      }).message,
    ).toMatch(/at most 100 source messages/);
  });
});
