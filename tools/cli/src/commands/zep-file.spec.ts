import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { NotTheFormat, parseJson } from './foreign-json';
import { zepPlan, zepRole } from './zep-file';

const zepFixture = () =>
  parseJson(readFileSync(join(__dirname, '../../../../tests/fixtures/import/zep.json'), 'utf8'));
const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : undefined);

describe('Zep files', () => {
  it("makes the thread's messages and the graph's episodes the user's transcript, a turn each", () => {
    const plan = zepPlan(zepFixture());
    expect(plan.refused).toEqual([]);
    expect(
      plan.turns.map(({ agent, turn }) => [
        agent,
        turn.sessionKey,
        turn.turnId,
        turn.messages[0]!.role,
        turn.messages[0]!.author,
      ]),
    ).toEqual([
      ['erin', 'zep', 'zep-b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', 'user', ''],
      ['erin', 'erin-onboarding', 'zep-6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0', 'user', 'Erin'],
      ['erin', 'erin-onboarding', 'zep-7a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9', 'assistant', ''],
    ]);
    expect(plan.turns[0]!.turn.messages[0]!.metadata).toEqual({
      zep: { source: 'text', source_description: 'HR system' },
    });
  });

  it('makes edges facts valid from valid_at, closed at invalid_at, resting on their episodes', () => {
    const plan = zepPlan(zepFixture());
    expect(plan.facts.map((f) => [f.save.key, iso(f.save.validFrom), iso(f.save.validTo)])).toEqual([
      ['zep:e0d1c2b3-a4f5-4e6d-9c8b-7a6f5e4d3c2b', '2019-09-01T00:00:00.000Z', '2024-04-15T00:00:00.000Z'],
      ['zep:f1e2d3c4-b5a6-4f7e-8d9c-0b1a2f3e4d5c', '2024-04-15T00:00:00.000Z', undefined],
      ['zep:0a9b8c7d-6e5f-4a3b-9c1d-2e3f4a5b6c7d', '2025-04-01T00:00:00.000Z', undefined],
    ]);
    expect(plan.facts[2]!.sources).toEqual({
      turns: [
        { sessionKey: 'zep', turnId: 'zep-b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e' },
        { sessionKey: 'erin-onboarding', turnId: 'zep-6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0' },
      ],
      required: false,
    });
    expect(plan.facts[2]!.save.metadata).toEqual({
      zep: {
        uuid: '0a9b8c7d-6e5f-4a3b-9c1d-2e3f4a5b6c7d',
        name: 'WORKS_AT',
        source_node_uuid: '11111111-2222-4333-8444-555555555555',
        target_node_uuid: '12121212-3434-4565-8787-909090909090',
        attributes: { shift: 'early' },
      },
    });
  });

  it("closes an edge Zep only expired at its expired_at; Graphiti's dumps belong to their group", () => {
    const plan = zepPlan([
      {
        uuid: 'e1',
        fact: 'Ada likes jazz',
        group_id: 'ada',
        created_at: '2025-01-01T00:00:00',
        expired_at: '2025-02-01T00:00:00',
      },
      {
        uuid: 'n1',
        content: 'Ada: I like jazz',
        group_id: 'ada',
        source: 'message',
        valid_at: '2025-01-01T00:00:00',
      },
    ]);
    expect(plan.facts.map((f) => [f.agent, iso(f.save.validTo)])).toEqual([
      ['ada', '2025-02-01T00:00:00.000Z'],
    ]);
    expect(plan.turns.map((t) => [t.agent, t.turn.sessionKey])).toEqual([['ada', 'zep']]);
  });

  it('reads both Zep role conventions', () => {
    expect(zepRole({ role: 'Erin', role_type: 'user' })).toEqual({ role: 'user', author: 'Erin' });
    expect(zepRole({ role: 'assistant', name: 'Helper' })).toEqual({ role: 'assistant', author: 'Helper' });
    expect(zepRole({ role_type: 'function' })).toEqual({ role: 'tool', author: '' });
    expect(zepRole({ role_type: 'norole' })).toEqual({ role: 'user', author: '' });
    expect(zepRole({})).toEqual({ role: 'user', author: '' });
  });

  it('refuses records with no owner or no words, and says why a file is not a Zep export', () => {
    const plan = zepPlan({
      edges: [
        { uuid: 'e1', fact: 'x' },
        { uuid: 'e2', group_id: 'g' },
      ],
    });
    expect(plan.refused).toEqual([
      { record: 'edges[0] (id e1)', reason: 'names no user (give --agent, or user_id in the file)' },
      { record: 'edges[1] (id e2)', reason: 'has no fact' },
    ]);
    expect(() => zepPlan({ results: [] })).toThrow(NotTheFormat);
    expect(() => zepPlan({ episodes: 'x' })).toThrow(NotTheFormat);
  });
});
