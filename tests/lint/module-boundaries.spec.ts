import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The boundaries are enforced, not just documented: ESLint fails a service that imports another. */
describe('module boundaries (eslint @nx/enforce-module-boundaries)', () => {
  const root = resolve(__dirname, '../..');

  // The rule reads Nx's cached project graph, and without one it skips itself (a warning on
  // stdout, every probe "accepted"): a checkout that has not run Nx yet computes it first.
  beforeAll(() => {
    const nx = spawnSync(process.execPath, [resolve(root, 'node_modules/.bin/nx'), 'show', 'projects'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    expect(nx.status).toBe(0);
  }, 120_000);

  /** Lints a source text as if it were the given file (ESLint runs as its own process: it loads its config as ESM). */
  function problems(file: string, source: string): string[] {
    const run = spawnSync(
      process.execPath,
      [
        resolve(root, 'node_modules/eslint/bin/eslint.js'),
        '--stdin',
        '--stdin-filename',
        file,
        '--format',
        'json',
      ],
      { cwd: root, input: source, encoding: 'utf8' },
    );
    const [result] = JSON.parse(run.stdout) as Array<{
      messages: Array<{ ruleId: string; message: string }>;
    }>;
    return result!.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
  }

  it('rejects a service importing another service, by package or by path', () => {
    expect(
      problems(
        'services/ingest/src/probe.ts',
        `import { RetrievalModule } from '@engram/retrieval';\nexport const x = RetrievalModule;\n`,
      ),
    ).not.toEqual([]);
    expect(
      problems(
        'services/ingest/src/probe.ts',
        `import { RetrievalModule } from '../../retrieval/src/retrieval.module';\nexport const x = RetrievalModule;\n`,
      ),
    ).not.toEqual([]);
  });

  it('rejects a lib importing a service', () => {
    expect(
      problems(
        'libs/messaging/src/probe.ts',
        `import { IngestModule } from '@engram/ingest';\nexport const x = IngestModule;\n`,
      ),
    ).not.toEqual([]);
  });

  it('accepts a service importing libs', () => {
    expect(
      problems(
        'services/ingest/src/probe.ts',
        `import { Subjects } from '@engram/contracts';\nexport const x = Subjects;\n`,
      ),
    ).toEqual([]);
  });
});
