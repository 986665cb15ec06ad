/** What a skill needs to be matched against a message. */
export interface TriggeredSkill {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly patterns: readonly string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A keyword matches as a whole word or phrase, in any case. */
function keywordMatches(keyword: string, message: string): boolean {
  const phrase = keyword.trim();
  if (!phrase) return false;
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${escapeRegExp(phrase).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`,
    'iu',
  ).test(message);
}

function patternMatches(pattern: string, message: string): boolean {
  try {
    return new RegExp(pattern, 'iu').test(message);
  } catch {
    // Patterns are checked on import; one stored before that rule simply never matches.
    return false;
  }
}

/** Keywords that match plus patterns that match: a skill is injected only above 0. */
export function skillScore(skill: TriggeredSkill, message: string): number {
  return (
    skill.keywords.filter((k) => keywordMatches(k, message)).length +
    skill.patterns.filter((p) => patternMatches(p, message)).length
  );
}

/** The skills a message triggers, best first (ties by name, so the order is stable). */
export function triggeredSkills<S extends TriggeredSkill>(
  skills: readonly S[],
  message: string,
): Array<{ skill: S; score: number }> {
  return skills
    .map((skill) => ({ skill, score: skillScore(skill, message) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.skill.name.localeCompare(b.skill.name));
}
