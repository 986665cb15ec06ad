import { skillScore, triggeredSkills } from './skill-triggers';

const deploy = { name: 'deploy', keywords: ['deploy', 'release notes'], patterns: ['v\\d+\\.\\d+'] };
const cooking = { name: 'cooking', keywords: ['recipe'], patterns: [] };

describe('skill triggers', () => {
  it('adds keyword matches and pattern matches', () => {
    expect(skillScore(deploy, 'Please DEPLOY v2.3 and write the release   notes')).toBe(3);
    expect(skillScore(deploy, 'deploy it')).toBe(1);
  });

  it('matches keywords as whole words only', () => {
    expect(skillScore(deploy, 'the redeployment failed')).toBe(0);
    expect(skillScore(cooking, 'recipes')).toBe(0);
  });

  it('injects only skills scoring above 0, best first', () => {
    const picked = triggeredSkills([cooking, deploy], 'a recipe to deploy v1.0');
    expect(picked.map((p) => [p.skill.name, p.score])).toEqual([
      ['deploy', 2],
      ['cooking', 1],
    ]);
    expect(triggeredSkills([cooking, deploy], 'hello there')).toEqual([]);
  });

  it('ignores a pattern that is not a valid expression', () => {
    expect(skillScore({ name: 'x', keywords: [], patterns: ['(unclosed'] }, '(unclosed')).toBe(0);
  });
});
