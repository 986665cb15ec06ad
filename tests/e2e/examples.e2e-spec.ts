import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startTestEnvironment, type ProcessSpec, type TestEnvironment } from '@engram/testing';
import type { ExampleExpectation, ExampleRun } from './examples/example-run';

const REPO = resolve(__dirname, '../..');
const EXAMPLES = join(REPO, 'examples');

/** Each example's expectation, in tests/e2e/examples/<name>.ts; an example without one fails the suite. */
const NAMES = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

function expectationOf(name: string): ExampleExpectation | undefined {
  const file = join(__dirname, 'examples', `${name}.ts`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- one module per example, found at run time
  return existsSync(file) ? (require(file) as { expectation: ExampleExpectation }).expectation : undefined;
}

/** An example as a user runs it: `node <main>` in its directory, against the stack's NATS. */
async function runExample(name: string, env: TestEnvironment): Promise<ExampleRun> {
  const dir = join(EXAMPLES, name);
  const { main } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main: string };
  const run = spawnSync(process.execPath, [main], {
    cwd: dir,
    env: {
      ...process.env,
      NATS_URL: env.nats.url,
      ENGRAM_API_KEY: '',
      ...(await expectationOf(name)!.env?.(env)),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every program under examples/ runs against real services and prints what the README says it does. */
describe('examples/ (real services as processes)', () => {
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'examples',
      processes: [
        ...new Set([
          'ingest',
          'retrieval',
          'context-builder',
          ...NAMES.flatMap((n) => expectationOf(n)?.processes ?? []),
        ]),
      ] as ProcessSpec[],
    });
  });

  afterAll(() => env?.stop());

  it('has an expectation for every example', () => {
    expect(NAMES.filter((name) => !expectationOf(name))).toEqual([]);
  });

  it.each(NAMES)('runs %s, twice, to the same effect', async (name) => {
    for (let time = 0; time < 2; time++) {
      const run = await runExample(name, env);
      await expectationOf(name)!
        .check(run, env)
        .catch((error: Error) => {
          throw new Error(`${error.message}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
        });
    }
  });

  it("shows the agent loop's source in the README exactly as it is in examples/", () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const shown = /<!-- example-source:agent-loop -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(readFileSync(join(EXAMPLES, 'agent-loop', 'index.mjs'), 'utf8'));
  });

  it('says what to do when Engram is not running', async () => {
    const stopped = spawnSync(process.execPath, ['index.mjs'], {
      cwd: join(EXAMPLES, 'agent-loop'),
      env: { ...process.env, NATS_URL: 'nats://127.0.0.1:1', ENGRAM_API_KEY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(
      /^Engram is not reachable at nats:\/\/127\.0\.0\.1:1: is it running \(`npm start`\)\? retried 3 times/,
    );
  });
});
