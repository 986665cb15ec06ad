import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TurnEventSchema } from '@engram/contracts';
import { RecordRefused } from './foreign-json';
import { checkPlan, EMPTY_PLAN, mapRecords, planCounts, type ImportPlan } from './import-plan';

const LIMITS = { maxMessagesPerTurn: 10, maxContentChars: 50 };
const turn = (turnId: string, content: string) =>
  create(TurnEventSchema, { turnId, sessionKey: 'run-1', messages: [{ role: 'user', content }] });

describe('import plans', () => {
  it('refuses by name what the services would refuse, and the facts resting on a refused turn', () => {
    const plan: ImportPlan = {
      turns: [
        { record: 'memory 1', agent: 'ada', turn: turn('t1', 'short') },
        { record: 'memory 2', agent: 'ada', turn: turn('t2', 'x'.repeat(51)) },
      ],
      facts: [
        {
          record: 'memory 1',
          agent: 'ada',
          save: { key: 'k1', content: 'short' },
          sources: { turns: [{ sessionKey: 'run-1', turnId: 't1' }], required: true },
        },
        {
          record: 'memory 2',
          agent: 'ada',
          save: { key: 'k2', content: 'x' },
          sources: { turns: [{ sessionKey: 'run-1', turnId: 't2' }], required: true },
        },
        { record: 'memory 3', agent: 'ada', save: { key: 'k3', content: 'y'.repeat(4001) } },
        {
          record: 'edge 1',
          agent: 'ada',
          save: {
            key: 'k4',
            content: 'z',
            validFrom: timestampFromDate(new Date('2025-02-01')),
            validTo: timestampFromDate(new Date('2025-01-01')),
          },
        },
      ],
      profiles: [{ record: 'agent 1', agent: 'ada', profile: { tools: ['not a token'] } }],
      refused: [{ record: 'memory 0', reason: 'has no id' }],
    };
    const checked = checkPlan(plan, 'acme', LIMITS);
    expect(checked.turns.map((t) => t.turn.turnId)).toEqual(['t1']);
    expect(checked.facts.map((f) => f.save.key)).toEqual(['k1']);
    expect(checked.profiles).toEqual([]);
    expect(checked.refused).toEqual([
      { record: 'memory 0', reason: 'has no id' },
      { record: 'memory 2', reason: 'messages[0].content: content is longer than 50 characters' },
      { record: 'memory 2', reason: 'the turn it was said in cannot be published' },
      { record: 'memory 3', reason: 'content is 4001 characters long; at most 4000 are accepted' },
      { record: 'edge 1', reason: 'validTo is not after validFrom' },
      { record: 'agent 1', reason: expect.stringContaining('tool names must be 1-64 letters') },
    ]);
  });

  it('maps each record on its own: one that cannot be read is refused, the others kept', () => {
    const plan = mapRecords(
      ['a', 'b'],
      (_r, i) => `record ${i + 1}`,
      (r, name) => {
        if (r === 'b') throw new RecordRefused('is b');
        return { ...EMPTY_PLAN, facts: [{ record: name, agent: 'ada', save: { key: r, content: r } }] };
      },
    );
    expect(plan.facts.map((f) => f.record)).toEqual(['record 1']);
    expect(plan.refused).toEqual([{ record: 'record 2', reason: 'is b' }]);
  });

  it('counts agents, conversations, turns, messages, facts (closed) and profiles', () => {
    expect(
      planCounts({
        ...EMPTY_PLAN,
        turns: [{ record: 'r', agent: 'ada', turn: turn('t1', 'hi') }],
        facts: [
          {
            record: 'r',
            agent: 'bob',
            save: { key: 'k', content: 'c', validTo: timestampFromDate(new Date(0)) },
          },
        ],
      }),
    ).toEqual({ agents: 2, conversations: 1, turns: 1, messages: 1, facts: 1, closedFacts: 1, profiles: 0 });
  });
});
