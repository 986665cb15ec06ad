import { parseSkillFile, SkillFileError, type SkillDefinition } from '@engram/context';
import type { PutSkillsRequest } from '@engram/contracts';

export interface SkillsWrite {
  readonly agent: string;
  readonly skills: SkillDefinition[];
  readonly rejected: Array<{ name: string; reason: string }>;
}

/**
 * Parses each file of a mem.rpc.skills.put request (which passed its rules, libs/contracts
 * skillPutRules): a file that is not a valid skill (bad front matter, a bad pattern, a
 * skill name another file of the request already took) is rejected with its reason, the
 * others are stored.
 */
export function skillsWrite(request: PutSkillsRequest): SkillsWrite {
  const skills: SkillDefinition[] = [];
  const rejected: Array<{ name: string; reason: string }> = [];
  const fileOf = new Map<string, string>();
  for (const file of request.files) {
    let skill: SkillDefinition;
    try {
      skill = parseSkillFile(file.name, file.markdown);
    } catch (error) {
      if (!(error instanceof SkillFileError)) throw error;
      rejected.push({ name: file.name, reason: error.problem });
      continue;
    }
    const earlier = fileOf.get(skill.name);
    if (earlier !== undefined) {
      rejected.push({ name: file.name, reason: `skill "${skill.name}" is already given by ${earlier}` });
      continue;
    }
    fileOf.set(skill.name, file.name);
    skills.push(skill);
  }
  return { agent: request.agent, skills, rejected };
}
