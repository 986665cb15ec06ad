import { FACT_CATEGORIES } from '@engram/memory-core';
import { CorpusGenerator } from './corpus-generator';
import { conversationCopyText, vectorText } from './corpus-load';
import { FULL_CORPUS, planCorpus, scaleCorpus } from './corpus-shape';
import { ZipfText } from './zipf-text';

const words = ['the', 'of', 'and', ...Array.from({ length: 2000 }, (_, i) => `word${i}`)];
const text = new ZipfText(words, 1);
const tenants = planCorpus(scaleCorpus(FULL_CORPUS, 0.01)); // 10,000 messages
const tenant = tenants[0]!;
const others = tenants.slice(1, 12);

describe('search corpus rows', () => {
  const generator = new CorpusGenerator(text);
  const conversations = tenant.conversations.map((plan) => generator.conversation(tenant, plan));
  const more = others.flatMap((t) => t.conversations.map((plan) => generator.conversation(t, plan)));

  it('writes each conversation as alternating user and assistant messages, in time order, with ids in order', () => {
    let nextId = 1;
    for (const c of conversations) {
      expect(c.messages).toHaveLength(c.plan.messages);
      c.messages.forEach((m, i) => {
        expect(m.id).toBe(nextId++);
        expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
        expect(m.position).toBe(i % 2);
        expect(m.turnId).toBe(`${c.plan.sessionKey}-t${Math.floor(i / 2)}`);
        expect(m.author).toEqual(m.role === 'assistant' ? c.plan.agent : expect.any(String));
        if (m.role === 'user') expect(tenant.people).toContain(m.author);
        if (i > 0) expect(m.createdAtMs).toBeGreaterThan(c.messages[i - 1]!.createdAtMs);
        expect(m.content.length).toBeGreaterThan(10);
      });
    }
    expect(generator.counts.messages).toBe(tenant.messages + others.reduce((n, t) => n + t.messages, 0));
  });

  it('summarises ~20 messages per leaf and 5 leaves per branch, pointing at what they cover', () => {
    for (const c of [...conversations, ...more]) {
      const leaves = c.summaries.filter((s) => s.depth === 0);
      const branches = c.summaries.filter((s) => s.depth === 1);
      expect(leaves.reduce((n, l) => n + l.messageCount, 0)).toBeGreaterThan(c.messages.length - 24); // all but the unfinished tail
      expect(branches).toHaveLength(Math.floor(leaves.length / 5));
      const ids = new Set(c.messages.map((m) => m.id));
      for (const leaf of leaves) {
        expect(leaf.sourceKind).toBe('message');
        expect(leaf.messageCount).toBeGreaterThanOrEqual(16);
        expect(leaf.messageCount).toBeLessThanOrEqual(24);
        expect(leaf.sourceIds.every((id) => ids.has(id))).toBe(true);
        expect(leaf.messageCount).toBe(leaf.sourceIds.length);
        expect(leaf.latestAtMs).toBeGreaterThanOrEqual(leaf.earliestAtMs);
      }
      for (const branch of branches) {
        expect(branch.sourceKind).toBe('summary');
        expect(branch.sourceIds.every((id) => leaves.some((l) => l.id === id))).toBe(true);
      }
    }
    expect(more.some((c) => c.summaries.some((s) => s.depth === 1))).toBe(true);
  });

  it('extracts a few facts per conversation, of every kind, some closed by the next one', () => {
    const all = [...conversations, ...more];
    const facts = all.flatMap((c) => c.facts);
    expect(facts.length).toBeGreaterThanOrEqual(all.length);
    expect(facts.length).toBeLessThanOrEqual(all.length * 6);
    expect(new Set(facts.map((f) => f.category))).toEqual(new Set(FACT_CATEGORIES));
    const closed = facts.filter((f) => f.validToMs !== null);
    expect(closed.length).toBeGreaterThan(0);
    for (const f of closed) {
      const next = facts.find((g) => g.id === f.supersededBy)!;
      expect(next.validFromMs).toBe(f.validToMs);
    }
  });

  it('is deterministic', () => {
    const again = new CorpusGenerator(text);
    expect(tenant.conversations.map((plan) => again.conversation(tenant, plan))).toEqual(conversations);
  });

  it('turns a conversation into COPY text for every table, one vector per item', () => {
    const embedder = {
      modelId: 'test-model',
      embed: (texts: readonly string[]) => texts.map(() => Float32Array.from([0.5, -0.25, 1 / 3])),
    };
    const c = conversations.find((x) => x.summaries.length > 0 && x.facts.length > 1)!;
    const copy = conversationCopyText(tenant.id, c, embedder);
    expect(copy.conversations.rows).toBe(1);
    expect(copy.messages.rows).toBe(c.messages.length);
    expect(copy.summaries.rows).toBe(c.summaries.length);
    expect(copy.summary_sources.rows).toBe(c.summaries.reduce((n, s) => n + s.sourceIds.length, 0));
    expect(copy.facts.rows).toBe(c.facts.length);
    expect(copy.embeddings.rows).toBe(c.messages.length + c.summaries.length + c.facts.length);
    const firstMessage = copy.messages.text.split('\n')[0]!.split('\t');
    expect(firstMessage.slice(0, 4)).toEqual([
      String(c.messages[0]!.id),
      tenant.id,
      String(c.plan.id),
      c.plan.agent,
    ]);
    expect(copy.embeddings.text).toContain(`\ttest-model\t[0.5,-0.25,0.33333]\t`);
    expect(copy.facts.text).toMatch(/\t\{\d+(,\d+)?\}\t/);
  });

  it('writes vectors as pgvector text, rounded to what halfvec keeps', () => {
    expect(vectorText([0.123456789, -1, 0])).toBe('[0.12346,-1,0]');
  });
});
