import type { MessageInitShape } from '@bufbuild/protobuf';
import { Rpcs } from '../rpcs';
import { violationsOf as violations } from './request-rules';

describe('mem.rpc.agents.put rules', () => {
  const put = (init: MessageInitShape<typeof Rpcs.agentsPut.request>) => violations(Rpcs.agentsPut, init);

  it('accept a profile, tool names padded or repeated', () => {
    expect(
      put({
        agent: 'helper',
        name: 'Gerty',
        tools: [' web_search', 'web_search'],
        settings: { language: 'en' },
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(put({ agent: 'bad agent', tools: ['web search', 'ok'] })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "bad agent")',
      tools: 'tool names must be 1-64 letters, digits, "_" or "-": "web search"',
    });
    expect(put({ agent: '' })).toEqual({ agent: 'agent is required' });
    expect(put({ agent: 'a', personality: 'x'.repeat(1_000_001) })).toEqual({
      personality: 'personality is 1000001 bytes long; at most 1000000 (1 MB) are accepted',
    });
    expect(put({ agent: 'a', userName: 'A\u0000' })).toEqual({
      userName: 'userName may not contain NUL characters',
    });
    expect(put({ agent: 'a', settings: { notes: 'x'.repeat(1_000_000) } })).toHaveProperty('settings');
  });
});

describe('mem.rpc.agents.get rules', () => {
  it('accept an agent token and refuse anything else', () => {
    expect(violations(Rpcs.agentsGet, { agent: 'helper' })).toEqual({});
    expect(violations(Rpcs.agentsGet, { agent: 'a.b' })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "a.b")',
    });
  });
});

describe('mem.rpc.workspace.put rules', () => {
  const put = (init: MessageInitShape<typeof Rpcs.workspacePut.request>) =>
    violations(Rpcs.workspacePut, init);

  it('accept workspace files and other files alike (the others are skipped, not refused)', () => {
    expect(
      put({
        agent: 'helper',
        documents: [
          { name: 'SOUL.md', content: 'I am curious.' },
          { name: 'memory/2026-11-22.md', content: '' },
          { name: 'notes.txt', content: 'scratch' },
        ],
      }),
    ).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(put({ agent: 'no/slash' })).toHaveProperty('agent');
    expect(put({ agent: 'a', documents: [{ name: 'AGENTS.md' }, { name: ' ', content: 'y' }] })).toEqual({
      'documents[1].name': 'documents[1].name is empty',
    });
    expect(put({ agent: 'a', documents: [{ name: 'x'.repeat(256) }] })).toEqual({
      'documents[0].name': 'documents[0].name is longer than 255 characters',
    });
    expect(put({ agent: 'a', documents: [{ name: 'a\nb.md' }] })).toEqual({
      'documents[0].name': 'documents[0].name may not contain line breaks or NUL characters',
    });
    expect(put({ agent: 'a', documents: [{ name: 'TOOLS.md', content: 'x'.repeat(1_000_001) }] })).toEqual({
      'documents[0].content':
        'documents[0].content is 1000001 bytes long; at most 1000000 (1 MB) are accepted',
    });
    expect(
      put({ agent: 'a', documents: Array.from({ length: 1001 }, (_, i) => ({ name: `${i}.txt` })) }),
    ).toEqual({
      documents: 'at most 1000 documents per request (got 1001)',
    });
  });

  it('refuse one document given twice under two names', () => {
    expect(
      put({
        agent: 'a',
        documents: [
          { name: 'memory/2026-11-22.md', content: 'a' },
          { name: 'soul.md', content: 'b' },
          { name: '2026-11-22.md', content: 'c' },
        ],
      }),
    ).toEqual({
      'documents[2].name': '2026-11-22.md and memory/2026-11-22.md are both memory/2026-11-22.md',
    });
  });
});

describe('mem.rpc.skills.put rules', () => {
  const put = (init: MessageInitShape<typeof Rpcs.skillsPut.request>) => violations(Rpcs.skillsPut, init);

  it('accept any markdown (a file that is no skill is rejected in the answer, not refused)', () => {
    expect(put({ agent: 'helper', files: [{ name: 'notes.md', markdown: '---\nbroken: [' }] })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(put({ agent: '', files: [{ name: '', markdown: 'x' }] })).toEqual({
      agent: 'agent is required',
      'files[0].name': 'files[0].name is empty',
    });
    expect(put({ agent: 'a', files: [{ name: 'a.md', markdown: 'x\u0000' }] })).toEqual({
      'files[0].markdown': 'files[0].markdown may not contain NUL characters',
    });
    expect(put({ agent: 'a', files: Array.from({ length: 1001 }, (_, i) => ({ name: `${i}.md` })) })).toEqual(
      {
        files: 'at most 1000 files per request (got 1001)',
      },
    );
  });
});
