import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort } from '@engram/testing';

const LIB = resolve(__dirname, '..');
const REPO = resolve(LIB, '../..');

interface PackedPackage {
  readonly name: string;
  readonly exports: Record<string, unknown>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies?: unknown;
  readonly private?: unknown;
}

/**
 * `npm pack` of libs/client (built: dist from tsup), installed by hand into a directory
 * outside the repository: the tarball's files under node_modules/@engram/client, and its
 * declared dependencies — and nothing else — linked from the workspace's node_modules (an
 * offline `npm install` of the tarball cannot resolve version ranges without the registry).
 * A package that leaned on workspace code it did not bundle would fail to load there.
 */
describe('the packed @engram/client', () => {
  let dir: string;
  let files: string[];
  let packed: PackedPackage;

  const node = (args: string[]) =>
    execFileSync(process.execPath, args, { cwd: join(dir, 'app'), encoding: 'utf8', timeout: 30_000 });

  beforeAll(() => {
    if (!existsSync(join(LIB, 'dist', 'index.mjs')))
      throw new Error('libs/client is not built: run `npm run build`');
    dir = mkdtempSync(join(tmpdir(), 'engram-client-pack-'));
    const [result] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: LIB,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = result!.files.map((f) => f.path).sort();

    const installed = join(dir, 'app', 'node_modules', '@engram', 'client');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, result!.filename), '-C', installed, '--strip-components=1']);
    packed = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackedPackage;
    for (const dependency of Object.keys(packed.dependencies)) {
      const link = join(dir, 'app', 'node_modules', dependency);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(REPO, 'node_modules', dependency), link, 'dir');
    }
    writeFileSync(join(dir, 'app', 'package.json'), JSON.stringify({ name: 'app', private: true }));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the ESM and CommonJS builds with their declarations, and no sources or specs', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'dist/index.d.mts',
        'dist/index.d.ts',
        'dist/index.js',
        'dist/index.mjs',
        'package.json',
      ]),
    );
    expect(files.filter((f) => !/^(dist\/index\.[a-z.]+|README\.md|package\.json)$/.test(f))).toEqual([]);
  });

  it('is publishable: public, exports with types for import and require, only npm packages as dependencies', () => {
    expect(packed.name).toBe('@engram/client');
    expect(packed.private).toBeUndefined();
    expect(packed.exports['.']).toEqual({
      import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
      require: { types: './dist/index.d.ts', default: './dist/index.js' },
    });
    expect(Object.keys(packed.dependencies).sort()).toEqual([
      '@bufbuild/protobuf',
      '@nats-io/jetstream',
      '@nats-io/transport-node',
      'safe-regex2',
      'zod',
    ]);
    const installed = join(dir, 'app', 'node_modules', '@engram', 'client', 'dist');
    for (const file of ['index.mjs', 'index.js', 'index.d.ts', 'index.d.mts']) {
      expect(readFileSync(join(installed, file), 'utf8')).not.toMatch(/['"]@engram\//);
    }
  });

  it('imports as ESM outside the repository and answers with its own error classes', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    writeFileSync(
      join(dir, 'app', 'main.mjs'),
      `import { EngramClient, EngramError, EngramUnavailableError, Rpcs, httpPath } from '@engram/client';
const client = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', retry: { retries: 0 } });
const failure = await client.search({ query: 'units' }).catch((error) => error);
console.log(JSON.stringify({
  unavailable: failure instanceof EngramUnavailableError,
  engram: failure instanceof EngramError,
  message: failure.message,
  route: httpPath(Rpcs.beingSceneAdd),
}));
`,
    );
    expect(JSON.parse(node(['main.mjs']))).toEqual({
      unavailable: true,
      engram: true,
      message: `Engram is not reachable at ${nowhere}: is it running (\`npm start\`)? retried 0 times (POST /v1/search: ECONNREFUSED)`,
      route: '/v1/being/scene/add',
    });
  });

  it('requires as CommonJS too', () => {
    writeFileSync(
      join(dir, 'app', 'main.cjs'),
      `const { EngramClient, EngramInvalidArgumentError } = require('@engram/client');
const client = EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', agent: 'concierge' });
client.publishTurn({ turnId: 't-1', messages: [] }).catch((error) => {
  console.log(JSON.stringify({ invalid: error instanceof EngramInvalidArgumentError, fields: error.fieldViolations.map((v) => v.field) }));
});
`,
    );
    expect(JSON.parse(node(['main.cjs']))).toEqual({ invalid: true, fields: ['sessionKey', 'messages'] });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    writeFileSync(
      join(dir, 'app', 'consumer.ts'),
      `import { EngramClient, EngramInvalidArgumentError, type SearchResponse } from '@engram/client';

export async function search(client: EngramClient): Promise<string[]> {
  const found: SearchResponse = await client.search({ query: 'units', topK: 5, filters: { agent: 'concierge' } });
  // @ts-expect-error: a SearchRequest has no field "question"
  await client.search({ question: 'units' });
  try {
    await client.publishTurn({ turnId: 't-1', sessionKey: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] });
  } catch (error) {
    if (error instanceof EngramInvalidArgumentError) return error.fieldViolations.map((v) => v.field);
  }
  return found.hits.map((hit) => hit.content);
}
`,
    );
    const tsc = resolve(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = (() => {
      try {
        return node([
          tsc,
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--types',
          'node',
          '--typeRoots',
          resolve(REPO, 'node_modules', '@types'),
          'consumer.ts',
        ]);
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(compiled).toBe('');
  });
});
