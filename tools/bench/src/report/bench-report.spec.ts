import { commitStamp, type GitRunner } from './bench-report';

/** A git that answers HEAD and `status --porcelain` as given, and records what it was asked. */
function fakeGit(head: string, status: string): GitRunner & { calls: string[][] } {
  const calls: string[][] = [];
  const git = (...args: string[]) => {
    calls.push(args);
    return args[0] === 'rev-parse' ? head : status;
  };
  return Object.assign(git, { calls });
}

describe('commitStamp', () => {
  it('records the commit and a clean tree when git status lists nothing', () => {
    expect(commitStamp(fakeGit('a7b743de60db', ''))).toEqual({ commit: 'a7b743de60db', clean: true });
  });

  it('records the commit and a dirty tree when a tracked file differs', () => {
    expect(commitStamp(fakeGit('a7b743de60db', ' M BENCHMARKS.md'))).toEqual({
      commit: 'a7b743de60db',
      clean: false,
    });
  });

  it('leaves bench-results/ and untracked files out of the check', () => {
    const git = fakeGit('a7b743de60db', '');
    commitStamp(git);
    const status = git.calls.find((args) => args[0] === 'status')!;
    expect(status).toEqual(expect.arrayContaining(['--untracked-files=no', ':(top,exclude)bench-results']));
  });

  it('records neither outside a git checkout', () => {
    const failing: GitRunner = () => {
      throw new Error('fatal: not a git repository');
    };
    expect(commitStamp(failing)).toEqual({ commit: null, clean: null });
  });
});
