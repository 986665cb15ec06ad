import type {
  MemoryHitInput,
  RecalledInput,
  RecentFactInput,
  SceneNodeInput,
  SkillInput,
  StickyFactInput,
} from '../assembly/context-inputs';
import { fillList, type ContextCut, type LayerFill } from '../assembly/layer-fill';
import { triggeredSkills } from '../skills/skill-triggers';
import type { TokenCounter } from '../tokens/token-counter';
import { isoDay } from './day';
import { nodeText } from './scene-memory';

export function toolsLayer(tools: readonly string[], counter: TokenCounter): LayerFill {
  const items = [...tools].sort().map((tool) => ({ text: `- ${tool}`, sourceIds: [`tool:${tool}`] }));
  return (cap) =>
    fillList({ layer: 'tools', role: 'system', header: 'Tools you can use:', items, counter, cap });
}

/** What labels each line of the sticky facts and memory layers (the Arvis design's own), so a model tells them apart. */
const STICKY_LABEL = '[STICKY]';
const MEMORY_LABEL = '[MEMORY]';

/** Most important first; among equals the newest, then by id, so the order never wavers. */
export function stickyFactsLayer(facts: readonly StickyFactInput[], counter: TokenCounter): LayerFill {
  const items = [...facts]
    .sort(
      (a, b) =>
        b.importance - a.importance ||
        b.validFrom.getTime() - a.validFrom.getTime() ||
        Number(a.id) - Number(b.id),
    )
    .map((f) => ({ text: `${STICKY_LABEL} ${f.content}`, sourceIds: [`fact:${f.id}`] }));
  return (cap) =>
    fillList({ layer: 'sticky_facts', role: 'system', header: 'Always keep in mind:', items, counter, cap });
}

/**
 * Layer 4: retrieval's hits for the current message in retrieval's order, then the agent's
 * other facts newest first (the Arvis design's "sorted by recency"), filled greedily to the
 * share. A hit already in the prompt (a message of the recent conversation, a sticky fact) is
 * left out and said so; a recent fact that is also a hit is shown once, as the hit.
 */
export function memoryLayer(
  hits: readonly MemoryHitInput[],
  recentFacts: readonly RecentFactInput[],
  alreadyIn: ReadonlyMap<string, string>,
  counter: TokenCounter,
): LayerFill {
  const duplicates: ContextCut[] = [];
  const hitRefs = new Set(hits.map((h) => h.ref));
  const byRecency = recentFacts
    .map((f) => ({ ref: `fact:${f.id}`, content: f.content, createdAt: f.validFrom }))
    .filter((f) => !hitRefs.has(f.ref));
  const items = [...hits, ...byRecency].flatMap((hit) => {
    const where = alreadyIn.get(hit.ref);
    if (where) {
      duplicates.push({
        layer: 'memory',
        reason: `already in the ${where}`,
        tokens: counter.count(hit.content),
        sourceIds: [hit.ref],
      });
      return [];
    }
    const date = hit.createdAt ? `[${isoDay(hit.createdAt)}] ` : '';
    return [{ text: `${MEMORY_LABEL} ${date}${hit.content.trim()}`, sourceIds: [hit.ref] }];
  });
  return (cap) => {
    const filled = fillList({
      layer: 'memory',
      role: 'system',
      header: 'Relevant memory from earlier conversations:',
      items,
      counter,
      cap,
    });
    return { ...filled, cut: [...filled.cut, ...duplicates] };
  };
}

export function skillsLayer(
  skills: readonly SkillInput[],
  message: string,
  counter: TokenCounter,
): LayerFill {
  const items = triggeredSkills(skills, message).map(({ skill }) => ({
    text: `### Skill: ${skill.name}${skill.description ? ` (${skill.description})` : ''}\n${skill.body.trim()}`,
    sourceIds: [`skill:${skill.name}`],
  }));
  return (cap) =>
    fillList({
      layer: 'skills',
      role: 'system',
      header: 'Skills for this request:',
      items,
      counter,
      cap,
      separator: '\n\n',
    });
}

/**
 * Block 2-B, the dynamic memory of a being: what the current message just recalled (its
 * fragments in their memory tag), then the most recently activated scenes, newest first, as
 * sceneToText renders them.
 */
export function scenesLayer(
  nodes: readonly SceneNodeInput[],
  recalled: RecalledInput | null,
  counter: TokenCounter,
): LayerFill {
  const items = [
    ...(recalled
      ? [
          {
            text: `- Recalled just now: ${recalled.text}`,
            sourceIds: recalled.nodeIds.map((id) => `scene:${id}`),
          },
        ]
      : []),
    ...nodes.map((n) => ({ text: `- ${nodeText(n)}`, sourceIds: [`scene:${n.id}`] })),
  ];
  return (cap) =>
    fillList({ layer: 'scenes', role: 'system', header: 'Recently active scenes:', items, counter, cap });
}
