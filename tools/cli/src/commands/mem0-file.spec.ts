import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { entityAgent } from '@engram/memory-core';
import { NotTheFormat, parseJson } from './foreign-json';
import { mem0Plan, splitCategories } from './mem0-file';

const fixture = (name: string) =>
  parseJson(readFileSync(join(__dirname, '../../../../tests/fixtures/import', name), 'utf8'));
const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : undefined);

describe('mem0 files as facts', () => {
  it("maps open-source get_all memories to their user's (else agent's) facts under mem0:<id>", () => {
    const plan = mem0Plan(fixture('mem0-oss.json'));
    expect(plan.refused).toEqual([]);
    expect(plan.facts.map((f) => [f.agent, f.save.key, f.save.content])).toEqual([
      ['alice', 'mem0:0b6a5f5e-8f3c-4c55-9a47-2f4c1d3e7a10', 'Is a vegetarian and allergic to peanuts'],
      [
        'alice',
        'mem0:5c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        'Is planning a cycling trip to the Dolomites in June',
      ],
      [
        'travel-assistant',
        'mem0:9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4',
        'Answers in metric units unless asked otherwise',
      ],
    ]);
    expect(plan.facts[0]!.save.metadata).toEqual({ source: 'onboarding' });
    expect(iso(plan.facts[0]!.save.validFrom)).toBe('2025-03-02T17:15:31.482Z');
  });

  it('publishes a memory of a run to that conversation, as the mem0 API adds it, and rests the fact on it', () => {
    const plan = mem0Plan(fixture('mem0-oss.json'));
    expect(plan.turns).toHaveLength(1);
    const { agent, turn } = plan.turns[0]!;
    expect(agent).toBe('alice');
    expect(turn).toMatchObject({
      turnId: 'mem0-5c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      sessionKey: 'trip-planning',
      channel: 'mem0',
      skipFactExtraction: true,
      messages: [
        { role: 'user', author: 'alice', content: 'Is planning a cycling trip to the Dolomites in June' },
      ],
    });
    expect(plan.facts[1]!.sources).toEqual({
      turns: [{ sessionKey: 'trip-planning', turnId: 'mem0-5c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' }],
      required: true,
    });
  });

  it("reads the platform's paginated list: hashed e-mail owners, categories, and an expired memory closed", () => {
    const plan = mem0Plan(fixture('mem0-platform.json'));
    const bob = entityAgent('bob@example.com');
    expect(bob).toMatch(/^bob_example_com-[0-9a-f]{8}$/);
    expect(plan.facts.map((f) => [f.agent, f.save.category, f.save.metadata])).toEqual([
      [bob, 'preference', { channel: 'email', confidence: 0.9, mem0_categories: ['travel'] }],
      [bob, '', { mem0_categories: ['personal_details', 'pets'] }],
      [bob, 'event', undefined],
    ]);
    expect(plan.facts.map((f) => iso(f.save.validTo))).toEqual([
      undefined,
      undefined,
      '2024-09-14T00:00:00.000Z',
    ]);
  });

  it('reads a platform export whose data lists memories, and a bare list', () => {
    expect(mem0Plan(fixture('mem0-platform-export.json')).facts).toMatchObject([
      { agent: 'carol', save: { content: 'Works as a nurse on night shifts at the city hospital' } },
    ]);
    expect(mem0Plan([{ id: 'm1', memory: 'Likes tea', user_id: 'dan' }]).facts).toHaveLength(1);
  });

  it('sends every memory to --agent when given', () => {
    expect(new Set(mem0Plan(fixture('mem0-oss.json'), { agent: 'copy' }).facts.map((f) => f.agent))).toEqual(
      new Set(['copy']),
    );
  });

  it('refuses a memory it cannot take by name and keeps the others', () => {
    const plan = mem0Plan({
      results: [
        { id: 'ok', memory: 'Likes tea', user_id: 'dan' },
        { id: 'x1', memory: 'No owner' },
        { memory: 'No id', user_id: 'dan' },
        { id: 'x3', memory: 'Bad time', user_id: 'dan', created_at: 'yesterday' },
        'not a memory',
      ],
    });
    expect(plan.facts.map((f) => f.save.key)).toEqual(['mem0:ok']);
    expect(plan.refused).toEqual([
      { record: 'memory 2 (id x1)', reason: 'names no user_id or agent_id (give --agent)' },
      { record: 'memory 3', reason: 'has no id, so importing it again could not find it' },
      { record: 'memory 4 (id x3)', reason: 'created_at is not a time ("yesterday")' },
      { record: 'memory 5', reason: 'is not an object' },
    ]);
  });

  it('says why a file is not a mem0 export', () => {
    expect(() => mem0Plan({ agents: [] })).toThrow(NotTheFormat);
    expect(() => mem0Plan({ results: [{ fact: 'x' }] })).toThrow('its list holds no memory');
    expect(() => mem0Plan('text')).toThrow('neither a list of memories nor an object holding one');
  });

  it("takes the first of Engram's categories and keeps the others", () => {
    expect(splitCategories(['food', 'Preference', 'event'])).toEqual({
      category: 'preference',
      others: ['food', 'event'],
    });
    expect(splitCategories(['food'])).toEqual({ category: undefined, others: ['food'] });
  });
});
