import { parseSkillFile, SkillFileError, type SkillDefinition } from '@engram/context';
import type { PutSkillsRequest } from '@engram/contracts';
import { RequestChecks } from '../agents/request-checks';

export interface SkillsWrite {
  readonly agent: string;
  readonly skills: SkillDefinition[];
  readonly rejected: Array<{ name: string; reason: string }>;
}

/**
 * Checks a mem.rpc.skill.put request (agent token; every file named, each at most 1 MB)
 * and parses each file: a file that is not a valid skill (bad front matter, a bad
 * pattern, a skill name another file of the request already took) is rejected with its
 * reason, the others are stored.
 */
export function skillsWrite(request: PutSkillsRequest): SkillsWrite {
  const checks = new RequestChecks('skill put');
  checks.agent(request.agent);
  checks.count('files', request.files.length);
  request.files.forEach((file, i) => {
    checks.fileName(`files[${i}].name`, file.name);
    checks.text(`files[${i}].markdown`, file.markdown);
  });
  checks.done();

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
