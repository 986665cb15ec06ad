import { classifyMemoryTag, expiryOf, type FactCategory, type FactLifetime } from './fact-kinds';
import { factSources, statedAt, type WindowLine } from './fact-sources';

/** One fact as a model's extract_facts answers it (libs/prompts `ExtractedFacts`). */
export interface ModelFact {
  readonly content: string;
  readonly category: FactCategory;
  readonly importance: number;
  readonly sourceMessageIds: readonly string[];
}

/** A fact made of a model's answer, before any write decides whether it is new. */
export interface ExtractedFactCandidate {
  readonly content: string;
  readonly category: FactCategory;
  /** The lifetime its category implies, as a tag of that name would give it. */
  readonly lifetime: FactLifetime;
  readonly importance: number;
  /** Messages of the window only (a model may invent ids); the window's user messages when it named none. */
  readonly sourceMessageIds: readonly string[];
  /** When it was said: its latest source's time; null when none of its sources is in the window. */
  readonly statedAt: Date | null;
}

/**
 * The facts of a model's extract_facts answer over `window`, the one translation every caller
 * uses (the compactor's extraction, the mem0 API's inference): each fact with the lifetime of its
 * category, its sources among the window's messages and the time it was said.
 */
export function factsOfExtraction(
  facts: readonly ModelFact[],
  window: readonly WindowLine[],
): ExtractedFactCandidate[] {
  return facts.map((fact) => {
    const sourceMessageIds = factSources(fact.sourceMessageIds, window);
    return {
      content: fact.content,
      category: fact.category,
      lifetime: classifyMemoryTag(fact.category).lifetime,
      importance: fact.importance,
      sourceMessageIds,
      statedAt: statedAt(sourceMessageIds, window),
    };
  });
}

/** When an extracted fact stops being served: its lifetime counted from when it was said (or `now`). */
export function extractedFactExpiry(fact: ExtractedFactCandidate, now: Date): Date | null {
  return expiryOf(fact.lifetime, fact.statedAt ?? now);
}
