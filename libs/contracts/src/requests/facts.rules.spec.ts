import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Rpcs } from '../rpcs';
import { violationsOf as violations } from './request-rules';

describe('mem.rpc.facts.list rules', () => {
  const list = (init: MessageInitShape<typeof Rpcs.factsList.request>) => violations(Rpcs.factsList, init);

  it('accept no filter at all (every fact in force), and every filter in range', () => {
    expect(list({})).toEqual({});
    expect(
      list({
        agents: ['helper', 'support-bot'],
        categories: ['preference', 'fact'],
        conversationId: '12',
        includeClosed: true,
        from: timestampFromDate(new Date('2026-01-01')),
        to: timestampFromDate(new Date('2026-02-01')),
        limit: 1000,
        offset: 5000,
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(list({ agents: ['helper', 'a.b'] })).toEqual({
      agents: 'agents: "a.b" is not an agent name (1-64 letters, digits, "_" or "-")',
    });
    expect(list({ categories: ['opinion'] })).toEqual({
      categories:
        'categories: "opinion" is not one of preference, fact, event, relationship, decision, correction, task, general',
    });
    expect(list({ agents: Array.from({ length: 101 }, (_, i) => `a${i}`) })).toEqual({
      agents: 'at most 100 agents (got 101)',
    });
    expect(list({ conversationId: 'chat-7' })).toEqual({
      conversationId: '"chat-7" is not a conversation id',
    });
    expect(list({ limit: 1001 })).toEqual({
      limit: 'limit must be between 1 and 1000, or 0 for 100 (got 1001)',
    });
    expect(list({ limit: -1 })).toHaveProperty('limit');
    expect(list({ offset: -1 })).toEqual({ offset: 'offset must be 0 or more (got -1)' });
    expect(
      list({
        from: timestampFromDate(new Date('2026-02-01')),
        to: timestampFromDate(new Date('2026-01-01')),
      }),
    ).toEqual({ from: 'from is after to' });
  });
});

describe('mem.rpc.facts.get rules', () => {
  it('need a fact id', () => {
    expect(violations(Rpcs.factsGet, { factId: '6' })).toEqual({});
    expect(violations(Rpcs.factsGet, {})).toEqual({ factId: 'factId is required' });
    expect(violations(Rpcs.factsGet, { factId: 'fact:6' })).toEqual({ factId: '"fact:6" is not a fact id' });
  });
});

describe('mem.rpc.facts.update rules', () => {
  const update = (init: MessageInitShape<typeof Rpcs.factsUpdate.request>) =>
    violations(Rpcs.factsUpdate, init);

  it('accept new text alone, or with a category, an importance and a reason', () => {
    expect(update({ factId: '6', content: 'Ada lives in Lisbon.' })).toEqual({});
    expect(
      update({
        factId: '6',
        content: 'Ada lives in Lisbon.',
        category: 'Fact',
        importance: 7,
        reason: 'moved',
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(update({ content: 'x' })).toEqual({ factId: 'factId is required' });
    expect(update({ factId: '6', content: '  ' })).toEqual({ content: 'content is required' });
    expect(update({ factId: '6', content: 'x'.repeat(4001) })).toEqual({
      content: 'content is 4001 characters long; at most 4000 are accepted',
    });
    expect(update({ factId: '6', content: 'a\u0000b' })).toEqual({
      content: 'content may not contain NUL characters',
    });
    expect(update({ factId: '6', content: 'x', category: 'opinion' })).toEqual({
      category:
        'category must be one of preference, fact, event, relationship, decision, correction, task, general (got "opinion")',
    });
    expect(update({ factId: '6', content: 'x', importance: 0 })).toEqual({
      importance: 'importance must be between 1 and 10 (got 0)',
    });
    expect(update({ factId: '6', content: 'x', importance: 11 })).toHaveProperty('importance');
    expect(update({ factId: '6', content: 'x', reason: 'r'.repeat(1001) })).toEqual({
      reason: 'reason is longer than 1000 characters',
    });
  });
});

describe('mem.rpc.state.list rules', () => {
  it('need the agent; keys are optional, as [STATE:key] tags name them', () => {
    expect(violations(Rpcs.stateList, { agent: 'helper' })).toEqual({});
    expect(violations(Rpcs.stateList, { agent: 'helper', keys: ['current_project', 'v1.mode'] })).toEqual({});
    expect(violations(Rpcs.stateList, {})).toEqual({ agent: 'agent is required' });
    expect(violations(Rpcs.stateList, { agent: 'helper', keys: ['a b'] })).toEqual({
      keys: 'keys: "a b" is not a state key (1-64 letters, digits, "_", "." or "-")',
    });
  });
});

describe('mem.rpc.conversations.list rules', () => {
  it('take an optional agent or conversation, and a page', () => {
    expect(violations(Rpcs.conversationsList, {})).toEqual({});
    expect(violations(Rpcs.conversationsList, { agent: 'helper', limit: 10, offset: 20 })).toEqual({});
    expect(violations(Rpcs.conversationsList, { conversationId: 'x' })).toEqual({
      conversationId: '"x" is not a conversation id',
    });
    expect(violations(Rpcs.conversationsList, { agent: 'a b', limit: 5000 })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "a b")',
      limit: 'limit must be between 1 and 1000, or 0 for 100 (got 5000)',
    });
  });

  it('take a query of at most 200 characters without NUL', () => {
    expect(violations(Rpcs.conversationsList, { query: 'kyoto trip' })).toEqual({});
    expect(violations(Rpcs.conversationsList, { query: 'x'.repeat(201) })).toEqual({
      query: 'query is longer than 200 characters',
    });
    expect(violations(Rpcs.conversationsList, { query: 'a\u0000b' })).toEqual({
      query: 'query may not contain NUL characters',
    });
  });
});

describe('mem.rpc.compactions.list rules', () => {
  it('take a required conversation id', () => {
    expect(violations(Rpcs.compactionsList, { conversationId: '42' })).toEqual({});
    expect(violations(Rpcs.compactionsList, {})).toEqual({ conversationId: 'conversationId is required' });
    expect(violations(Rpcs.compactionsList, { conversationId: 'chat-7' })).toEqual({
      conversationId: '"chat-7" is not a conversation id',
    });
  });
});

describe('mem.rpc.summaries.list rules', () => {
  it('take a required conversation id', () => {
    expect(violations(Rpcs.summariesList, { conversationId: '42' })).toEqual({});
    expect(violations(Rpcs.summariesList, {})).toEqual({ conversationId: 'conversationId is required' });
    expect(violations(Rpcs.summariesList, { conversationId: 'chat-7' })).toEqual({
      conversationId: '"chat-7" is not a conversation id',
    });
  });
});

describe('mem.rpc.agents.list rules', () => {
  it('take a page', () => {
    expect(violations(Rpcs.agentsList, {})).toEqual({});
    expect(violations(Rpcs.agentsList, { limit: 1000, offset: 200 })).toEqual({});
    expect(violations(Rpcs.agentsList, { limit: 1001, offset: -1 })).toEqual({
      limit: 'limit must be between 1 and 1000, or 0 for 100 (got 1001)',
      offset: 'offset must be 0 or more (got -1)',
    });
  });
});
