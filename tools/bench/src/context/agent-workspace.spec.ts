import { parseSkillFile } from '@engram/context';
import { SeededRandom } from '../corpus/seeded-random';
import { ZipfText } from '../search/zipf-text';
import { agentWorkspace, SKILLS_PER_AGENT, WORKSPACE_FILES, type WordSource } from './agent-workspace';

const FUNCTION_WORDS = new Set(['the', 'of', 'and', 'to']);
// Words YAML would read as something else than a string, to check the front matter quotes them.
const text = new ZipfText(
  [...FUNCTION_WORDS, 'null', 'yes', 'true', '123', ...Array.from({ length: 2000 }, (_, i) => `term${i}`)],
  1,
);
const words: WordSource = {
  word: (random: SeededRandom) => text.word(random),
  isContentWord: (w) => !FUNCTION_WORDS.has(w),
};
const tenant = { id: 'tenant-007', people: ['alice', 'bob'] };
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe('context benchmark agent workspaces', () => {
  const all = ['assistant', 'support', 'coder', 'ops', 'tutor', 'analyst'].map((agent) =>
    agentWorkspace(tenant, agent, '2026-11-01', words, 42),
  );

  it('gives each agent a profile, SOUL/USER/AGENTS/MEMORY of a few hundred words and today’s daily note', () => {
    for (const w of all) {
      expect(w.profile.agent).toBe(w.agent);
      expect(w.profile.userName).toBe('Alice');
      expect(w.profile.job.length).toBeGreaterThan(10);
      expect(w.documents.map((d) => d.name)).toEqual([...WORKSPACE_FILES, 'memory/2026-11-01.md']);
      for (const d of w.documents.slice(0, WORKSPACE_FILES.length)) {
        expect(wordCount(d.content)).toBeGreaterThanOrEqual(150);
        expect(wordCount(d.content)).toBeLessThanOrEqual(800);
      }
    }
  });

  it('gives each agent 2–3 skills that parse, with keywords from the corpus words', () => {
    for (const w of all) {
      expect(w.skills.length).toBeGreaterThanOrEqual(SKILLS_PER_AGENT.min);
      expect(w.skills.length).toBeLessThanOrEqual(SKILLS_PER_AGENT.max);
      const parsed = w.skills.map((s) => parseSkillFile(s.name, s.markdown));
      expect(new Set(parsed.map((p) => p.name)).size).toBe(parsed.length);
      for (const p of parsed) {
        expect(p.keywords.length).toBeGreaterThanOrEqual(2);
        for (const k of p.keywords) expect(typeof k).toBe('string');
        expect(p.body.length).toBeGreaterThan(50);
      }
    }
  });

  it('is deterministic per tenant and agent, and differs between agents', () => {
    expect(agentWorkspace(tenant, 'coder', '2026-11-01', words, 42)).toEqual(all[2]);
    expect(all[2]!.documents[0]!.content).not.toBe(all[3]!.documents[0]!.content);
    expect(
      agentWorkspace({ ...tenant, id: 'tenant-008' }, 'coder', '2026-11-01', words, 42).documents[0],
    ).not.toEqual(all[2]!.documents[0]);
  });
});
