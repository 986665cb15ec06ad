import { create } from '@bufbuild/protobuf';
import { AgentProfileSchema } from '@engram/contracts';
import { mergedProfile, sourcesOf } from './foreign-import';
import { storedTurnKey } from './turn-publishing';

describe('importing into what is stored', () => {
  it("puts the file's profile over the stored one: what the file leaves out is kept", () => {
    const stored = create(AgentProfileSchema, {
      agent: 'trail',
      name: 'Old',
      job: 'guide',
      tools: ['web_search'],
      sceneMemory: true,
      settings: { tone: 'calm', letta: { agent_id: 'agent-9' } },
    });
    expect(
      mergedProfile('trail', stored, {
        name: 'Trail',
        tools: [],
        settings: { letta: { agent_id: 'agent-0' } },
      }),
    ).toEqual({
      agent: 'trail',
      name: 'Trail',
      personality: undefined,
      job: 'guide',
      userName: undefined,
      tools: ['web_search'],
      sceneMemory: true,
      model: undefined,
      settings: { tone: 'calm', letta: { agent_id: 'agent-0' } },
    });
    expect(mergedProfile('new', undefined, { personality: 'kind' })).toMatchObject({
      agent: 'new',
      personality: 'kind',
      tools: [],
      sceneMemory: false,
      settings: {},
    });
  });

  it("links a fact to its stored turns; a run's fact to that conversation, or not at all while it is not stored", () => {
    const stored = new Map([
      [storedTurnKey('ada', 'run-1', 't1'), { conversationId: '7', messageIds: ['70', '71'] }],
      [storedTurnKey('ada', 'zep', 't2'), { conversationId: '8', messageIds: ['80'] }],
    ]);
    const fact = (turns: Array<{ sessionKey: string; turnId: string }>, required: boolean) => ({
      record: 'r',
      agent: 'ada',
      save: { key: 'k', content: 'c' },
      sources: { turns, required },
    });
    expect(sourcesOf(fact([{ sessionKey: 'run-1', turnId: 't1' }], true), stored)).toEqual({
      conversationId: '7',
      sourceMessageIds: ['70', '71'],
    });
    expect(sourcesOf(fact([{ sessionKey: 'run-1', turnId: 'gone' }], true), stored)).toBeUndefined();
    expect(
      sourcesOf(
        fact(
          [
            { sessionKey: 'run-1', turnId: 't1' },
            { sessionKey: 'zep', turnId: 't2' },
            { sessionKey: 'zep', turnId: 'gone' },
          ],
          false,
        ),
        stored,
      ),
    ).toEqual({ conversationId: '', sourceMessageIds: ['70', '71', '80'] });
    expect(sourcesOf({ record: 'r', agent: 'ada', save: { key: 'k', content: 'c' } }, stored)).toEqual({
      conversationId: '',
      sourceMessageIds: [],
    });
  });
});
