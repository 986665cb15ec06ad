import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Rpcs } from '../rpcs';
import { encodeCursor } from '../values/transcript-cursor';
import { violationsOf as violations } from './request-rules';

describe('mem.rpc.search rules', () => {
  const search = (init: MessageInitShape<typeof Rpcs.search.request>) => violations(Rpcs.search, init);

  it('accept a query with defaults, and every mode, fusion and filter in range', () => {
    expect(search({ query: 'cats' })).toEqual({});
    expect(
      search({
        query: 'Bailey|Oliver',
        mode: 'regex',
        fusion: 'rrf',
        topK: 100,
        filters: {
          agent: 'helper',
          conversationId: '12',
          kinds: ['message', 'fact'],
          roles: ['user', 'tool'],
          from: timestampFromDate(new Date('2026-01-01')),
          to: timestampFromDate(new Date('2026-02-01')),
        },
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(search({ query: '   ' })).toEqual({ query: 'query is empty' });
    expect(search({ query: 'a'.repeat(2001) })).toEqual({ query: 'query is longer than 2000 characters' });
    expect(search({ query: 'x', mode: 'semantic-only' })).toEqual({
      mode: 'mode must be one of fulltext, trigram, regex (got "semantic-only")',
    });
    expect(search({ query: 'x', fusion: 'max' })).toHaveProperty('fusion');
    expect(search({ query: 'x', topK: -1 })).toEqual({ topK: 'topK must be between 1 and 100 (got -1)' });
    expect(search({ query: 'x', topK: 101 })).toHaveProperty('topK');
    expect(search({ query: 'x', filters: { kinds: ['message', 'note'] } })).toEqual({
      'filters.kinds': 'kinds must be among message, summary, fact (got "note")',
    });
    expect(search({ query: 'x', filters: { roles: ['narrator'] } })).toHaveProperty(['filters.roles']);
    expect(search({ query: 'x', filters: { conversationId: 'abc' } })).toEqual({
      'filters.conversationId': '"abc" is not a conversation id',
    });
    expect(search({ query: 'x', filters: { agent: 'a.b' } })).toHaveProperty(['filters.agent']);
    expect(
      search({
        query: 'x',
        filters: {
          from: timestampFromDate(new Date('2026-02-01')),
          to: timestampFromDate(new Date('2026-01-01')),
        },
      }),
    ).toEqual({ 'filters.from': 'filters.from is after filters.to' });
  });

  it('refuse a regex that could take exponential time, but leave syntax to Postgres', () => {
    expect(search({ query: '(a+)+$', mode: 'regex' })).toEqual({
      query: 'the regex cannot be used: nested repetition (like (a+)+) can take exponential time',
    });
    expect(search({ query: '(a)\\1', mode: 'regex' })).toHaveProperty('query');
    expect(search({ query: '(a+)+$' })).toEqual({});
    expect(search({ query: '(unclosed', mode: 'regex' })).toEqual({});
  });
});

describe('mem.rpc.browse rules', () => {
  const browse = (init: MessageInitShape<typeof Rpcs.browse.request>) => violations(Rpcs.browse, init);
  const cursor = encodeCursor({
    createdAt: '2026-01-01 00:00:00.000001+00',
    streamSeq: '3',
    position: 0,
    id: '9',
    direction: 'forward',
  });

  it('accept a conversation, an agent, or an agent and its session key, from a start or a cursor', () => {
    expect(browse({ conversationId: '1' })).toEqual({});
    expect(browse({ agent: 'helper', sessionKey: 'chat-1', direction: 'backward', limit: 500 })).toEqual({});
    expect(browse({ agent: 'helper', cursor })).toEqual({});
    expect(browse({ conversationId: '1', aroundMessageId: '7' })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(browse({ conversationId: '1', limit: -1 })).toEqual({
      limit: 'limit must be between 1 and 500 (got -1)',
    });
    expect(browse({ conversationId: '1', limit: 501 })).toHaveProperty('limit');
    expect(browse({ conversationId: '1', direction: 'sideways' })).toEqual({
      direction: 'direction must be "forward" or "backward" (got "sideways")',
    });
    expect(browse({ conversationId: 'abc' })).toEqual({ conversationId: '"abc" is not a conversation id' });
    expect(browse({ conversationId: '1', aroundMessageId: 'm-1' })).toEqual({
      aroundMessageId: '"m-1" is not a message id',
    });
    expect(browse({ conversationId: '1', cursor: 'garbage' })).toEqual({
      cursor: 'cursor is not one this service returned',
    });
    expect(browse({ agent: 'no agent' })).toHaveProperty('agent');
  });

  it('refuse a request that does not say what to browse, or where to start twice', () => {
    expect(browse({})).toEqual({
      conversationId: 'say what to browse: conversationId, agent + sessionKey, or agent',
    });
    expect(browse({ sessionKey: 'chat-1' })).toEqual({ agent: 'sessionKey needs the agent it belongs to' });
    expect(
      browse({ conversationId: '1', cursor, from: timestampFromDate(new Date()), aroundMessageId: '7' }),
    ).toEqual({
      from: 'give at most one of cursor, from and aroundMessageId',
      aroundMessageId: 'give at most one of cursor, from and aroundMessageId',
    });
  });
});

describe('mem.rpc.stats.get rules', () => {
  it('accept the whole tenant or one agent, and refuse a name that cannot be an agent', () => {
    expect(violations(Rpcs.statsGet, {})).toEqual({});
    expect(violations(Rpcs.statsGet, { agent: 'helper' })).toEqual({});
    expect(violations(Rpcs.statsGet, { agent: 'no such agent' })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "no such agent")',
    });
  });
});

describe('mem.rpc.expand rules', () => {
  const recall = (init: MessageInitShape<typeof Rpcs.expand.request>) => violations(Rpcs.expand, init);

  it('accept refs of messages, summaries and facts, at a depth up to 3', () => {
    expect(recall({ refs: ['message:123', 'summary:45', 'fact:6'] })).toEqual({});
    expect(recall({ refs: ['summary:45'], depth: 3 })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(recall({})).toEqual({ refs: 'refs is empty: name the items to expand' });
    expect(recall({ refs: ['message:1', 'note:2', 'fact:x'] })).toEqual({
      'refs[1]': 'refs[1] "note:2" is not a ref like "message:123", "summary:45" or "fact:6"',
      'refs[2]': 'refs[2] "fact:x" is not a ref like "message:123", "summary:45" or "fact:6"',
    });
    expect(recall({ refs: Array.from({ length: 101 }, (_, i) => `fact:${i + 1}`) })).toEqual({
      refs: 'at most 100 refs per expansion (got 101)',
    });
    expect(recall({ refs: ['fact:1'], depth: 4 })).toEqual({
      depth: 'depth must be between 1 and 3, or 0 for 3 (got 4)',
    });
    expect(recall({ refs: ['fact:1'], depth: -1 })).toHaveProperty('depth');
  });
});

describe('mem.rpc.save rules', () => {
  const save = (init: MessageInitShape<typeof Rpcs.save.request>) => violations(Rpcs.save, init);

  it('accept a fact with defaults, and categories and lifetimes in any letter case', () => {
    expect(save({ agent: 'helper', content: 'The user is called Ada.' })).toEqual({});
    expect(
      save({
        agent: 'helper',
        content: '€'.repeat(4000),
        category: ' Correction ',
        lifetime: 'PROJECT_CONTEXT',
        importance: 10,
        conversationId: '12',
        sourceMessageIds: ['5', '6', '5'],
      }),
    ).toEqual({});
  });

  it('report every bad field at once, one violation each', () => {
    expect(
      save({
        agent: '',
        content: ' ',
        category: 'gossip',
        lifetime: 'forever',
        importance: 11,
        conversationId: 'abc',
        sourceMessageIds: ['1', 'x'],
      }),
    ).toEqual({
      agent: 'agent is required',
      content: 'content is required',
      category:
        'category must be one of preference, fact, event, relationship, decision, correction, task, general (got "gossip")',
      lifetime:
        'lifetime must be one of sticky, user_preference, project_context, learned_pattern (got "forever")',
      importance: "importance must be between 1 and 10, or 0 for the category's default (got 11)",
      conversationId: '"abc" is not a conversation id',
      sourceMessageIds: 'not message ids: "x"',
    });
  });

  it('bound the content and the sources, and refuse what Postgres text cannot hold', () => {
    expect(save({ agent: 'a', content: 'x'.repeat(4001) })).toEqual({
      content: 'content is 4001 characters long; at most 4000 are accepted',
    });
    expect(save({ agent: 'a', content: 'a\u0000b' })).toEqual({
      content: 'content may not contain NUL characters',
    });
    expect(save({ agent: 'my agent', content: 'x' })).toHaveProperty('agent');
    expect(
      save({
        agent: 'a',
        content: 'x',
        sourceMessageIds: Array.from({ length: 101 }, (_, i) => String(i + 1)),
      }),
    ).toEqual({ sourceMessageIds: 'at most 100 source messages may be cited (got 101)' });
  });
});

describe('mem.rpc.forget rules', () => {
  const forget = (init: MessageInitShape<typeof Rpcs.forget.request>) => violations(Rpcs.forget, init);

  it('accept a fact id with or without a reason', () => {
    expect(forget({ factId: '12' })).toEqual({});
    expect(forget({ factId: '12', reason: 'x'.repeat(1000) })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(forget({})).toEqual({ factId: 'factId is required' });
    expect(forget({ factId: 'fact:12' })).toEqual({ factId: '"fact:12" is not a fact id' });
    expect(forget({ factId: '99999999999999999999' })).toHaveProperty('factId');
    expect(forget({ factId: '1', reason: 'x'.repeat(1001) })).toEqual({
      reason: 'reason is longer than 1000 characters',
    });
    expect(forget({ factId: '1', reason: 'a\u0000' })).toEqual({
      reason: 'reason may not contain NUL characters',
    });
  });
});
