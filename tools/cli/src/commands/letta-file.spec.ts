import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { UsageError } from './cli-failure';
import { NotTheFormat, parseJson } from './foreign-json';
import { lettaMessages, lettaPlan, userNameIn, userWords } from './letta-file';

const agentFile = () =>
  parseJson(readFileSync(join(__dirname, '../../../../tests/fixtures/import/letta.af'), 'utf8'));

describe('Letta agent files', () => {
  it("makes the agent's profile from its blocks, description, tools and model", () => {
    const plan = lettaPlan(agentFile());
    expect(plan.profiles).toEqual([
      {
        record: 'agents[0] (trail_guide)',
        agent: 'trail_guide',
        profile: {
          name: 'trail_guide',
          personality:
            "I am Trail, a calm and careful hiking guide. I plan routes around the hiker's limits.",
          job: 'A hiking guide that remembers the hikers it plans routes for',
          userName: 'Dana',
          tools: ['check_trail_conditions', 'conversation_search'],
          model: 'gpt-4o-mini',
          settings: {
            letta: {
              agent_id: 'agent-0',
              agent_type: 'letta_v1_agent',
              system: 'You are Trail, a hiking guide with memory blocks.',
              tags: ['hiking'],
            },
          },
        },
      },
    ]);
  });

  it('keeps every block as a sticky fact and every archival passage as a fact, under stable keys', () => {
    const plan = lettaPlan(agentFile());
    expect(plan.facts.map((f) => [f.save.key, f.save.category ?? '', f.save.lifetime ?? ''])).toEqual([
      ['letta:agent-0:human', 'fact', 'sticky'],
      ['letta:agent-0:persona', 'general', 'sticky'],
      ['letta:agent-0:passage:passage-0', '', ''],
    ]);
    expect(plan.facts[2]!.save.metadata).toEqual({
      letta: { agent_id: 'agent-0', passage_id: 'passage-0', tags: ['trip-report'] },
    });
  });

  it('makes the messages one conversation, a turn per message with its id, system prompts left out', () => {
    const plan = lettaPlan(agentFile());
    expect(plan.refused).toEqual([]);
    expect(
      plan.turns.map(({ turn }) => [turn.turnId, turn.sessionKey, turn.messages.map((m) => m.role)]),
    ).toEqual([
      ['letta-message-1', 'letta-agent-0', ['user']],
      ['letta-message-2', 'letta-agent-0', ['assistant']],
      ['letta-message-3', 'letta-agent-0', ['tool']],
      ['letta-message-4', 'letta-agent-0', ['assistant']],
      ['letta-message-5', 'letta-agent-0', ['user']],
    ]);
    const call = plan.turns[1]!.turn.messages[0]!;
    expect([call.toolName, call.toolCallId, toJson(ValueSchema, call.toolArgs!)]).toEqual([
      'check_trail_conditions',
      'call_k2Jm8',
      { trail: 'Lake Loop' },
    ]);
    const result = plan.turns[2]!.turn.messages[0]!;
    expect(result).toMatchObject({ toolName: 'check_trail_conditions', toolCallId: 'call_k2Jm8' });
    expect(toJson(ValueSchema, result.toolResult!)).toEqual({
      status: 'OK',
      message: 'Lake Loop: dry, 120 m of gentle descent',
    });
  });

  it("reads a MemGPT-era agent's words: the wrapped user message, send_message as the reply", () => {
    const names = new Map<string, string>();
    const reply = lettaMessages(
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'User seems friendly.' }],
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'send_message', arguments: '{"message": "Hello Chad!"}' },
          },
        ],
      },
      names,
    );
    expect(reply).toEqual([{ role: 'assistant', content: 'Hello Chad!', createdAt: undefined }]);
    expect(lettaMessages({ role: 'tool', tool_call_id: 'c1', content: 'None' }, names)).toEqual([]);
    expect(userWords('{"type": "user_message", "message": "hi there", "time": "x"}')).toBe('hi there');
    expect(userWords('{"type": "heartbeat", "reason": "x"}')).toBeUndefined();
    expect(userWords('plain words')).toBe('plain words');
  });

  it("reads the user's name from the human block when it states one", () => {
    expect(userNameIn('This is what I know.\nFirst name: Chad\nLast name: ?')).toBe('Chad');
    expect(userNameIn('Name: Ada Lovelace')).toBe('Ada Lovelace');
    expect(userNameIn('First name: ?')).toBeUndefined();
    expect(userNameIn('The human needs help.')).toBeUndefined();
  });

  it('reads the first schema (core_memory) and a file exported as a JSON string', () => {
    const v1 = {
      name: 'memgpt_agent',
      core_memory: [
        {
          label: 'persona',
          value: 'I am Sam.',
          created_at: '2025-01-01T00:00:00',
          updated_at: '2025-01-02T00:00:00',
        },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello' }], created_at: '2025-01-02T10:00:00' },
      ],
      tools: [{ name: 'send_message' }],
    };
    const plan = lettaPlan(parseJson(JSON.stringify(JSON.stringify(v1))));
    expect(plan.facts.map((f) => f.save.key)).toEqual(['letta:memgpt_agent:persona']);
    expect(plan.turns[0]!.turn.turnId).toMatch(/^letta-[0-9a-f]{32}$/);
    expect(plan.turns[0]!.turn.messages[0]!.createdAt).toBeDefined();
  });

  it('refuses --agent for a file of several agents, and says why a file is no agent file', () => {
    expect(() => lettaPlan({ agents: [{ name: 'a' }, { name: 'b' }] }, { agent: 'x' })).toThrow(UsageError);
    expect(() => lettaPlan({ results: [] })).toThrow(NotTheFormat);
    expect(() => lettaPlan([])).toThrow('not a JSON object');
  });
});
