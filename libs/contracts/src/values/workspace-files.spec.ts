import { workspaceDocumentKind, workspaceSkipReason } from './workspace-files';

describe('workspaceDocumentKind', () => {
  it.each([
    ['SOUL.md', 'soul'],
    ['IDENTITY.md', 'identity'],
    ['USER.md', 'user'],
    ['AGENTS.md', 'agents'],
    ['TOOLS.md', 'tools'],
    ['MEMORY.md', 'memory'],
  ])('%s is the %s file', (name, kind) => {
    expect(workspaceDocumentKind(name)).toEqual({ name, kind, day: null });
  });

  it('reads the fixed files in any letter case, stored under their own name', () => {
    expect(workspaceDocumentKind('soul.md')).toEqual({ name: 'SOUL.md', kind: 'soul', day: null });
    expect(workspaceDocumentKind('./Memory.MD')).toEqual({ name: 'MEMORY.md', kind: 'memory', day: null });
  });

  it('takes memory/YYYY-MM-DD.md and YYYY-MM-DD.md as the daily note of that day', () => {
    const note = { name: 'memory/2026-11-22.md', kind: 'daily', day: '2026-11-22' };
    expect(workspaceDocumentKind('memory/2026-11-22.md')).toEqual(note);
    expect(workspaceDocumentKind('2026-11-22.md')).toEqual(note);
    expect(workspaceDocumentKind('memory\\2026-11-22.md')).toEqual(note);
    expect(workspaceDocumentKind('memory/2024-02-29.md')?.day).toBe('2024-02-29');
  });

  it('answers null for anything else, with a reason', () => {
    for (const name of [
      'notes.txt',
      'README.md',
      'skills/deploy.md',
      'memory/notes.md',
      'other/2026-11-22.md',
      'SOUL.md.bak',
      '',
    ]) {
      expect(workspaceDocumentKind(name)).toBeNull();
      expect(workspaceSkipReason(name)).toMatch(
        /^not a workspace file: expected SOUL\.md, .* or a daily note memory\/YYYY-MM-DD\.md$/,
      );
    }
    expect(workspaceDocumentKind('memory/2026-02-30.md')).toBeNull();
    expect(workspaceSkipReason('memory/2026-02-30.md')).toBe('2026-02-30 is not a calendar day');
  });
});
