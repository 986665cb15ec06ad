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

  /**
   * Lints a source text as if it were the given file, through ESLint's API in its own process (it
   * loads its config as ESM). The probe is not on disk, so not in the type-aware rules' program:
   * those are switched off for it, and the boundaries rule runs as on any file.
   */
  function problems(file: string, source: string): string[] {
    const script = `
      import { ESLint } from 'eslint';
      const eslint = new ESLint({
        overrideConfig: {
          languageOptions: { parserOptions: { project: null } },
          rules: {
            '@typescript-eslint/no-floating-promises': 'off',
            '@typescript-eslint/no-misused-promises': 'off',
            '@typescript-eslint/switch-exhaustiveness-check': 'off',
          },
        },
      });
      const [result] = await eslint.lintText(process.env.PROBE_SOURCE, { filePath: process.env.PROBE_FILE });
      console.log(JSON.stringify(result.messages));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PROBE_FILE: resolve(root, file), PROBE_SOURCE: source },
    });
    const messages = JSON.parse(run.stdout) as Array<{ ruleId: string | null; message: string }>;
    // A probe that did not parse proves nothing either way.
    expect(messages.filter((m) => m.ruleId === null)).toEqual([]);
    return messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
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

  it('keeps the pure libs free of infrastructure and of libs that are not pure', () => {
    expect(
      problems('libs/search/src/probe.ts', `import { Client } from 'pg';\nexport const x = Client;\n`),
    ).toEqual(['A project tagged with "layer:pure" is not allowed to import "pg"']);
    expect(
      problems(
        'libs/being/src/probe.ts',
        `import { RpcClient } from '@engram/messaging';\nexport const x = RpcClient;\n`,
      ),
    ).toEqual(['A project tagged with "layer:pure" can only depend on libs tagged with "layer:pure"']);
    // Their specs may seed a real database.
    expect(
      problems(
        'libs/search/src/probe.int-spec.ts',
        `import { Client } from 'pg';\nexport const x = Client;\n`,
      ),
    ).toEqual([]);
  });

  it("checks the dashboard's .tsx files too", () => {
    expect(
      problems(
        'libs/dashboard/src/probe.tsx',
        `import { IngestModule } from '@engram/ingest';\nexport const x = IngestModule;\n`,
      ),
    ).not.toEqual([]);
  });
});
