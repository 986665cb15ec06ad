import { execFileSync } from 'node:child_process';
import { REPOSITORY_ROOT } from './service-sources';

/** Commits from this moment on are held to the rule; older history is left as it was written. */
const SINCE = '2026-11-29T11:30:00Z';
const MAX_SUBJECT = 72;

interface Commit {
  readonly hash: string;
  readonly subject: string;
  readonly body: string;
}

/** The commits since SINCE, merges left out, or null outside a git checkout (an exported tree). */
function commitsSince(since: string): Commit[] | null {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  try {
    if (git('rev-parse', '--is-inside-work-tree').trim() !== 'true') return null;
  } catch {
    return null;
  }
  return git('log', '--no-merges', `--since=${since}`, '--format=%h%x00%s%x00%b%x1e')
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.length > 0)
    .map((record) => {
      const [hash = '', subject = '', body = ''] = record.split('\x00');
      return { hash, subject, body: body.trim() };
    });
}

/** What breaks CONTRIBUTING.md's commit rule: a subject of at most 72 characters, and a body that says why. */
function commitProblems({ subject, body }: Pick<Commit, 'subject' | 'body'>): string[] {
  const problems: string[] = [];
  if (subject.length > MAX_SUBJECT)
    problems.push(`subject of ${subject.length} characters (at most ${MAX_SUBJECT})`);
  if (body.length === 0) problems.push('no body: say why');
  return problems;
}

describe('commit messages (CONTRIBUTING.md, "Commits")', () => {
  const commits = commitsSince(SINCE);

  it('finds the rule breaks it is for', () => {
    expect(commitProblems({ subject: 'x'.repeat(73), body: '' })).toEqual([
      'subject of 73 characters (at most 72)',
      'no body: say why',
    ]);
    expect(commitProblems({ subject: 'lint: commits say why', body: 'Because.' })).toEqual([]);
  });

  it(`holds every commit since ${SINCE} to it (none to check in a tree without git)`, () => {
    const broken = (commits ?? [])
      .map((commit) => ({ commit: `${commit.hash} ${commit.subject}`, problems: commitProblems(commit) }))
      .filter(({ problems }) => problems.length > 0);
    expect(broken).toEqual([]);
  });
});
