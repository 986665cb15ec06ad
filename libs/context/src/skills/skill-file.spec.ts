import { parseSkillFile, SkillFileError } from './skill-file';

const failureOf = (fileName: string, markdown: string): SkillFileError => {
  try {
    parseSkillFile(fileName, markdown);
  } catch (error) {
    if (error instanceof SkillFileError) return error;
    throw error;
  }
  throw new Error('expected the skill file to be refused');
};

describe('parseSkillFile', () => {
  it('reads name, description and triggers from the front matter, and the body after it', () => {
    const source = [
      '---',
      'name: deploy',
      'description: Ship a release to production',
      'triggers:',
      '  keywords: [deploy, " release ", deploy]',
      '  patterns:',
      '    - "roll ?back"',
      '    - "\\\\bv\\\\d+\\\\.\\\\d+"',
      'version: 2',
      '---',
      '',
      '# Deploying',
      '',
      'Run the pipeline.',
      '',
    ].join('\n');
    expect(parseSkillFile('deploy.md', source)).toEqual({
      name: 'deploy',
      description: 'Ship a release to production',
      keywords: ['deploy', 'release'],
      patterns: ['roll ?back', '\\bv\\d+\\.\\d+'],
      body: '# Deploying\n\nRun the pipeline.',
      source,
    });
  });

  it('names the skill after its file when the front matter does not, and tolerates no triggers', () => {
    expect(
      parseSkillFile('skills/Release-Notes.md', '---\ndescription: notes\n---\nWrite them.'),
    ).toMatchObject({
      name: 'Release-Notes',
      description: 'notes',
      keywords: [],
      patterns: [],
      body: 'Write them.',
    });
  });

  it('takes a file without front matter (or with an empty one, or CRLF lines) as a skill without triggers', () => {
    expect(parseSkillFile('plain.md', '# Plain\nJust text.')).toMatchObject({
      name: 'plain',
      description: null,
      body: '# Plain\nJust text.',
    });
    expect(parseSkillFile('empty.md', '---\n---\nBody')).toMatchObject({ name: 'empty', body: 'Body' });
    expect(
      parseSkillFile('crlf.md', '---\r\nname: crlf\r\ntriggers:\r\n  keywords: [a]\r\n---\r\nBody\r\n'),
    ).toMatchObject({
      name: 'crlf',
      keywords: ['a'],
      body: 'Body',
    });
  });

  it('refuses invalid YAML, naming the file and the problem', () => {
    const error = failureOf('broken.md', '---\nname: broken\ntriggers: [unclosed\n---\nBody');
    expect(error.fileName).toBe('broken.md');
    expect(error.message).toBe(
      'broken.md: invalid YAML front matter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 20',
    );
    expect(failureOf('dup.md', '---\nname: a\nname: b\n---\n').message).toMatch(
      /dup\.md: invalid YAML front matter: .*[Uu]nique/,
    );
  });

  it('refuses a front matter that is never closed, or is not a mapping', () => {
    expect(failureOf('open.md', '---\nname: open\nBody').message).toMatch(/open\.md: .*never closed/);
    expect(failureOf('list.md', '---\n- a\n- b\n---\n').message).toMatch(
      /list\.md: the front matter must be a mapping/,
    );
  });

  it('refuses fields of the wrong type and unknown trigger keys', () => {
    expect(failureOf('k.md', '---\ntriggers:\n  keywords: [deploy, 42]\n---\n').message).toBe(
      'k.md: triggers.keywords[1] must be a string, not a number (42)',
    );
    expect(failureOf('k2.md', '---\ntriggers:\n  keywords: deploy\n---\n').message).toMatch(
      /triggers\.keywords must be a list of strings, not a string/,
    );
    expect(failureOf('o.md', '---\ntriggers:\n  keywords: [a, {b: 1}]\n---\n').message).toBe(
      'o.md: triggers.keywords[1] must be a string, not an object ({"b":1})',
    );
    expect(failureOf('n.md', '---\nname: [x]\n---\n').message).toMatch(/"name" must be a string, not a list/);
    expect(failureOf('d.md', '---\ndescription: 3\n---\n').message).toMatch(
      /"description" must be a string, not a number/,
    );
    expect(failureOf('t.md', '---\ntriggers: deploy\n---\n').message).toMatch(/"triggers" must be a mapping/);
    expect(failureOf('u.md', '---\ntriggers:\n  keyword: [deploy]\n---\n').message).toMatch(
      /unknown key under triggers: keyword/,
    );
    expect(failureOf('e.md', '---\ntriggers:\n  keywords: ["  "]\n---\n').message).toMatch(
      /triggers\.keywords\[0\] is empty/,
    );
  });

  it('refuses a pattern that is not a valid regular expression, or that backtracks catastrophically', () => {
    expect(failureOf('p.md', '---\ntriggers:\n  patterns: ["deploy(", ok]\n---\n').message).toMatch(
      /^p\.md: triggers\.patterns\[0\] "deploy\(" is not a valid regular expression: /,
    );
    expect(failureOf('r.md', '---\ntriggers:\n  patterns: ["(a+)+$"]\n---\n').message).toMatch(
      /nested repetition/,
    );
  });
});
