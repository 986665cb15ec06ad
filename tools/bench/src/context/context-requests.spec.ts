import { SeededRandom } from '../corpus/seeded-random';
import { ZipfText } from '../search/zipf-text';
import {
  agentsAsked,
  generateContextRequests,
  SESSION_KEY_SHARE,
  type ContextRequestSource,
} from './context-requests';

const FUNCTION_WORDS = new Set(['the', 'of', 'and', 'to']);
const text = new ZipfText([...FUNCTION_WORDS, ...Array.from({ length: 2000 }, (_, i) => `term${i}`)], 1);
const NOW = new Date('2026-11-01T00:00:00Z');
const source: ContextRequestSource = {
  word: (random: SeededRandom) => text.word(random),
  isContentWord: (w) => !FUNCTION_WORDS.has(w),
  tenants: [
    {
      id: 'a',
      agents: ['coder', 'ops'],
      conversations: [
        { id: 1, agent: 'coder', sessionKey: 'coder-1' },
        { id: 2, agent: 'ops', sessionKey: 'ops-2' },
      ],
    },
    { id: 'b', agents: ['support'], conversations: [{ id: 3, agent: 'support', sessionKey: 'support-3' }] },
  ],
  period: { fromMs: Date.parse('2025-05-01T00:00:00Z'), toMs: NOW.getTime() },
};

describe('context benchmark requests', () => {
  const requests = generateContextRequests(2000, source, NOW, 7);

  it('asks for a conversation of the tenant, for that conversation’s agent, by session key or by id', () => {
    for (const r of requests) {
      const tenant = source.tenants.find((t) => t.id === r.tenantId)!;
      expect(tenant).toBeDefined();
      expect((r.conversationId === undefined) !== (r.sessionKey === undefined)).toBe(true);
      const conversation = tenant.conversations.find(
        (c) => String(c.id) === r.conversationId || c.sessionKey === r.sessionKey,
      )!;
      expect(conversation.agent).toBe(r.agent);
      expect(r.asOf).toEqual(NOW);
    }
    const bySessionKey = requests.filter((r) => r.sessionKey !== undefined).length / requests.length;
    expect(Math.abs(bySessionKey - SESSION_KEY_SHARE)).toBeLessThan(0.05);
  });

  it('sends the search benchmark’s queries as the current message: 2–8 words', () => {
    for (const r of requests) {
      const n = r.currentMessage.split(' ').length;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(8);
    }
    expect(new Set(requests.map((r) => r.currentMessage)).size).toBeGreaterThan(1900);
  });

  it('is deterministic for a seed', () => {
    expect(generateContextRequests(50, source, NOW, 7)).toEqual(requests.slice(0, 50));
    expect(generateContextRequests(50, source, NOW, 8)).not.toEqual(requests.slice(0, 50));
  });

  it('lists each agent asked for once, in first-asked order', () => {
    const agents = agentsAsked(requests);
    expect(agents).toHaveLength(3);
    expect(new Set(agents.map((a) => `${a.tenantId}/${a.agent}`))).toEqual(
      new Set(['a/coder', 'a/ops', 'b/support']),
    );
    expect(agents[0]).toEqual({ tenantId: requests[0]!.tenantId, agent: requests[0]!.agent });
  });
});
