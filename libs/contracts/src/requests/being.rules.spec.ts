import type { MessageInitShape } from '@bufbuild/protobuf';
import { Rpcs } from '../rpcs';
import { violationsOf as violations } from './request-rules';

const BAD_AGENT = 'agent must be 1-64 letters, digits, "_" or "-" (got "a b")';

describe('mem.rpc.being.scenes.add rules', () => {
  const add = (init: MessageInitShape<typeof Rpcs.beingScenesAdd.request>) =>
    violations(Rpcs.beingScenesAdd, init);

  it('accept any scene text (one that does not parse is kept, not refused) and any finite importance', () => {
    expect(add({ agent: 'mia', scene: '{"action": "half' })).toEqual({});
    expect(
      add({
        agent: 'mia',
        scene: '{"action":"baked bread","actors":["me"]}',
        importance: 7,
        themes: ['baking'],
        emotion: { valence: -1, arousal: 1, dominance: 0, safety: 0.5, novelty: 0, trust: 1 },
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(
      add({
        agent: 'a b',
        scene: ' ',
        importance: Number.POSITIVE_INFINITY,
        themes: ['', 'x'],
        emotion: { valence: -2, arousal: 1.5, trust: -0.1 },
      }),
    ).toEqual({
      agent: BAD_AGENT,
      scene: 'scene is required',
      importance: 'importance must be a finite number (got Infinity)',
      themes: 'themes must be 1-200 characters each (got "")',
      'emotion.valence': 'emotion.valence must be between -1 and 1 (got -2)',
      'emotion.arousal': 'emotion.arousal must be between 0 and 1 (got 1.5)',
      'emotion.trust': 'emotion.trust must be between 0 and 1 (got -0.1)',
    });
    expect(add({ agent: 'a', scene: 'x'.repeat(8001), themes: Array(101).fill('t') })).toEqual({
      scene: 'scene is 8001 characters long; at most 8000 are accepted',
      themes: 'at most 100 themes (got 101)',
    });
    expect(add({ agent: 'a', scene: 'x', emotion: { safety: Number.NaN } })).toEqual({
      'emotion.safety': 'emotion.safety must be between 0 and 1 (got NaN)',
    });
  });
});

describe('mem.rpc.being.notes.add rules', () => {
  it('accept the four kinds, and none for a note', () => {
    for (const kind of ['', 'note', 'todo', 'reminder', 'knowledge'])
      expect(violations(Rpcs.beingNotesAdd, { agent: 'mia', kind, content: 'buy flour' })).toEqual({});
  });

  it('refuse a scene (it has its own RPC), an unknown kind and empty content', () => {
    expect(violations(Rpcs.beingNotesAdd, { agent: '', kind: 'scene', content: '' })).toEqual({
      agent: 'agent is required',
      kind: 'kind must be one of note, todo, reminder, knowledge (got "scene")',
      content: 'content is required',
    });
    expect(violations(Rpcs.beingNotesAdd, { agent: 'a', kind: 'diary', content: 'x' })).toEqual({
      kind: 'kind must be one of note, todo, reminder, knowledge (got "diary")',
    });
  });
});

describe('mem.rpc.being.notes.list rules', () => {
  it('accept every kind, scenes included, and limits 0 (default) to 500', () => {
    expect(violations(Rpcs.beingNotesList, { agent: 'a', kinds: ['scene', 'todo'], limit: 500 })).toEqual({});
    expect(violations(Rpcs.beingNotesList, { agent: 'a' })).toEqual({});
  });

  it('refuse an unknown kind and a limit out of range', () => {
    expect(violations(Rpcs.beingNotesList, { agent: 'a', kinds: ['note', 'diary'], limit: 501 })).toEqual({
      kinds: 'kinds must be among scene, note, todo, reminder, knowledge (got "diary")',
      limit: 'limit must be between 1 and 500 (got 501)',
    });
    expect(violations(Rpcs.beingNotesList, { agent: 'a', limit: -1 })).toEqual({
      limit: 'limit must be between 1 and 500 (got -1)',
    });
  });
});

describe('mem.rpc.being.notes.read rules', () => {
  const read = (noteIds: string[]) => violations(Rpcs.beingNotesRead, { agent: 'a', noteIds });

  it('accept row ids', () => {
    expect(read(['1', '9223372036854775807'])).toEqual({});
  });

  it('refuse no ids, too many, and what no row can have as id', () => {
    expect(read([])).toEqual({ noteIds: 'noteIds is required' });
    expect(read(Array.from({ length: 101 }, (_, i) => String(i + 1)))).toEqual({
      noteIds: 'at most 100 noteIds (got 101)',
    });
    expect(read(['1', '01'])).toEqual({ noteIds: '"01" is not a note id' });
    expect(read(['0'])).toEqual({ noteIds: '"0" is not a note id' });
    // Past Postgres' bigint: a request error, not a database error.
    expect(read(['9223372036854775808'])).toEqual({ noteIds: '"9223372036854775808" is not a note id' });
  });
});

describe('mem.rpc.being.rules.put rules', () => {
  it('want the rule text', () => {
    expect(
      violations(Rpcs.beingRulesPut, { agent: 'a', rule: 'Never wake me before 8', enabled: true }),
    ).toEqual({});
    expect(violations(Rpcs.beingRulesPut, { agent: 'a b', rule: ' ' })).toEqual({
      agent: BAD_AGENT,
      rule: 'rule is required',
    });
  });
});

describe('mem.rpc.being.relationships.put rules', () => {
  it('want a person; relation and notes are optional and bounded', () => {
    expect(violations(Rpcs.beingRelationshipsPut, { agent: 'a', person: 'Mia' })).toEqual({});
    expect(
      violations(Rpcs.beingRelationshipsPut, {
        agent: 'a',
        person: '',
        relation: 'x'.repeat(201),
        notes: 'a\u0000',
      }),
    ).toEqual({
      person: 'person is required',
      relation: 'relation is 201 characters long; at most 200 are accepted',
      notes: 'notes may not contain NUL characters',
    });
  });
});

describe('mem.rpc.being.preferences.put rules', () => {
  it('want a key and a value', () => {
    expect(violations(Rpcs.beingPreferencesPut, { agent: 'a', key: 'units', value: 'metric' })).toEqual({});
    expect(violations(Rpcs.beingPreferencesPut, { agent: 'a', key: '', value: ' ' })).toEqual({
      key: 'key is required',
      value: 'value is required',
    });
  });
});

describe('mem.rpc.being.soul.put rules', () => {
  it('accept an empty soul (it replaces the one stored)', () => {
    expect(violations(Rpcs.beingSoulPut, { agent: 'a' })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(
      violations(Rpcs.beingSoulPut, {
        agent: 'a',
        personality: 'x'.repeat(8001),
        values: [' '],
        examples: Array(101).fill('e'),
        innerWorld: 'a\u0000',
      }),
    ).toEqual({
      personality: 'personality is 8001 characters long; at most 8000 are accepted',
      values: 'values must be 1-8000 characters each (got " ")',
      innerWorld: 'innerWorld may not contain NUL characters',
      examples: 'at most 100 examples (got 101)',
    });
  });
});

describe('mem.rpc.being.get rules', () => {
  it('want an agent token', () => {
    expect(violations(Rpcs.beingGet, { agent: 'mia' })).toEqual({});
    expect(violations(Rpcs.beingGet, { agent: 'a b' })).toEqual({ agent: BAD_AGENT });
  });
});

describe('mem.rpc.being.nodes.pin rules', () => {
  it('want a node id', () => {
    expect(violations(Rpcs.beingNodesPin, { agent: 'a', nodeId: '12', pinned: true })).toEqual({});
    expect(violations(Rpcs.beingNodesPin, { agent: 'a', nodeId: '' })).toEqual({
      nodeId: 'nodeId is required',
    });
    expect(violations(Rpcs.beingNodesPin, { agent: 'a', nodeId: 'x1' })).toEqual({
      nodeId: '"x1" is not a node id',
    });
  });
});

describe('mem.rpc.being.recall rules', () => {
  it('want a message of at most 4000 characters', () => {
    expect(violations(Rpcs.beingRecall, { agent: 'a', message: 'we baked bread' })).toEqual({});
    expect(violations(Rpcs.beingRecall, { agent: 'a', message: ' ' })).toEqual({
      message: 'message is required',
    });
    expect(violations(Rpcs.beingRecall, { agent: 'a', message: 'x'.repeat(4001) })).toEqual({
      message: 'message is 4001 characters long; at most 4000 are accepted',
    });
  });
});

describe('mem.rpc.being.clusters.recall rules', () => {
  it('want a cluster id', () => {
    expect(violations(Rpcs.beingClustersRecall, { agent: 'a', clusterId: '3' })).toEqual({});
    expect(violations(Rpcs.beingClustersRecall, { agent: 'a', clusterId: '' })).toEqual({
      clusterId: 'clusterId is required',
    });
    expect(violations(Rpcs.beingClustersRecall, { agent: 'a', clusterId: '0' })).toEqual({
      clusterId: '"0" is not a cluster id',
    });
  });
});

describe('mem.rpc.being.nodes.search rules', () => {
  const search = (init: { keywords: string[]; match?: string; limit?: number }) =>
    violations(Rpcs.beingNodesSearch, { agent: 'a', ...init });

  it('accept keywords with or, and, or no match, and limits 0 (default) to 100', () => {
    expect(search({ keywords: ['bread'] })).toEqual({});
    expect(search({ keywords: ['bread', '50%'], match: 'and', limit: 100 })).toEqual({});
    expect(search({ keywords: ['bread'], match: 'or', limit: 1 })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(search({ keywords: [], match: 'xor', limit: 101 })).toEqual({
      keywords: 'keywords is required',
      match: 'match must be one of or, and (got "xor")',
      limit: 'limit must be between 1 and 100 (got 101)',
    });
    expect(search({ keywords: ['ok', ' '] })).toEqual({
      keywords: 'keywords must be 1-200 characters each (got " ")',
    });
    expect(search({ keywords: ['x'.repeat(201)] })).toHaveProperty('keywords');
  });
});

describe('mem.rpc.patrol.run rules', () => {
  it('want an agent; model and key are optional and bounded', () => {
    expect(violations(Rpcs.patrolRun, { agent: 'a' })).toEqual({});
    expect(violations(Rpcs.patrolRun, { agent: '', model: 'x'.repeat(201) })).toEqual({
      agent: 'agent is required',
      model: 'model is 201 characters long; at most 200 are accepted',
    });
  });
});
