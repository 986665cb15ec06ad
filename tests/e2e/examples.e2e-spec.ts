import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';

const REPO = resolve(__dirname, '../..');
const EXAMPLES = join(REPO, 'examples');

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What each example must print and leave behind; an example without an entry fails the suite. */
const EXPECTATIONS: Record<string, (run: Run, env: TestEnvironment) => Promise<void>> = {
  'agent-loop': async (run, env) => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.match(/^prompt: \d+ of 96000 tokens \(identity, tools.*\)$/gm)).toHaveLength(2);
    expect(run.stdout).toMatch(/^assistant: \(\d+ messages in\) Glad to help with: Hi, I am Ada\. .*$/m);
    expect(run.stdout).toMatch(
      /^assistant: \(\d+ messages in\) Glad to help with: Where is my order 1042\?$/m,
    );
    // Both turns went to memory (user + assistant each), once however often the example ran.
    await waitFor('the two turns stored', async () => (await storedMessages(env, 'chat-7')) === 4, 15_000);
  },
};

function storedMessages(env: TestEnvironment, sessionKey: string): Promise<number> {
  return env.count(
    `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.tenant_id = 'acme' AND c.session_key = $1`,
    [sessionKey],
  );
}

/** An example as a user runs it: `node <main>` in its directory, against the stack's NATS. */
function runExample(name: string, env: TestEnvironment): Run {
  const dir = join(EXAMPLES, name);
  const { main } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main: string };
  const run = spawnSync(process.execPath, [main], {
    cwd: dir,
    env: { ...process.env, NATS_URL: env.nats.url, ENGRAM_API_KEY: '' },
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
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
  });

  afterAll(() => env?.stop());

  it('has an expectation for every example', () => {
    const examples = readdirSync(EXAMPLES, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(examples.map((e) => e.name).sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });

  it.each(Object.keys(EXPECTATIONS))('runs %s, twice, to the same effect', async (name) => {
    for (let time = 0; time < 2; time++) {
      const run = runExample(name, env);
      await EXPECTATIONS[name]!(run, env).catch((error: Error) => {
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
