import type { MemoryAnswer } from './task-inputs';

const REF = /^[a-z]+:[\w-]+$/;

/**
 * An answer that cites only the hits it was given. A model may invent or garble an id;
 * a citation nobody can follow is worse than none, so unknown ids are dropped from
 * `citedIds` and from the brackets in the text, and ids the text cites but the list
 * forgot are added. Brackets that are not citations ("[sic]") stay as written.
 */
export function citingOnlyHits(
  answer: MemoryAnswer,
  hits: ReadonlyArray<{ readonly id: string }>,
): MemoryAnswer {
  const given = new Set(hits.map((h) => h.id));
  const citedInText: string[] = [];
  const text = answer.answer.replace(/(\s*)\[([^[\]]+)\]/g, (whole, space: string, inner: string) => {
    const refs = inner.split(/[\s,;]+/).filter(Boolean);
    if (!refs.every((r) => REF.test(r))) return whole;
    const known = refs.filter((r) => given.has(r));
    citedInText.push(...known);
    return known.length > 0 ? `${space}[${known.join(', ')}]` : '';
  });
  const citedIds = [...new Set([...answer.citedIds.filter((id) => given.has(id)), ...citedInText])];
  return { answer: text.trim(), citedIds };
}
