import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { request } from 'undici';
import { DEFAULT_HTTP_PORTS } from '@engram/config';
import {
  createScratchDatabase,
  startNatsServer,
  waitFor,
  type NatsServerHandle,
  type ScratchDatabase,
} from '@engram/testing';

/** What `npm start` runs after provisioning and building: every service, each healthy, all stopped by Ctrl-C. */
describe('npm start (the stack launcher)', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('stack')]);
  });

  afterAll(async () => {
    await nats?.stop();
    await db?.drop();
  });

  it('starts all eight services, reports each ready, runs the README example, and stops them all on SIGINT', async () => {
    // Ports stay below Linux's ephemeral range (32768+), where other suites' sockets are bound.
    const offset = 10_000 + Math.floor(Math.random() * 12_000);
    const launcher = spawn(process.execPath, [resolve(__dirname, '../../tools/stack/dist/main.js')], {
      env: {
        ...process.env,
        NATS_URL: nats.url,
        DATABASE_URL: db.appUrl,
        DATABASE_OWNER_URL: db.ownerUrl,
        ENGRAM_STACK_PORT_OFFSET: String(offset),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    launcher.stdout.on('data', (c: Buffer) => (output += c.toString()));
    launcher.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((done) => launcher.once('exit', (code) => done(code)));

    await waitFor('the summary', async () => output.includes('Engram is running'), 90_000).catch(
      (e: Error) => {
        throw new Error(`${e.message}\n${output.slice(-3000)}`);
      },
    );
    for (const [service, port] of Object.entries(DEFAULT_HTTP_PORTS)) {
      expect(output).toMatch(
        new RegExp(`${service}\\s+http://127\\.0\\.0\\.1:${port + offset}/health/ready\\s+ready`),
      );
      const { statusCode, body } = await request(`http://127.0.0.1:${port + offset}/health/ready`);
      const health = (await body.json()) as { status: string; info: Record<string, unknown> };
      expect(statusCode).toBe(200);
      expect(health.status).toBe('ok');
      expect(Object.keys(health.info)).toContain('nats');
    }

    // The README's copy-paste example, exactly as written, against this stack.
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
    const example = /<!-- example:publish-and-read -->\n```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const pasted = spawnSync('bash', ['-c', example!], {
      cwd: resolve(__dirname, '../..'),
      env: { ...process.env, NATS_URL: nats.url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(pasted.status).toBe(0);
    expect(pasted.stdout).toMatch(/^durable: stream TURNS, sequence \d+$/m);
    expect(pasted.stdout).toMatch(/ user: Hi! I am Ada\. Please use metric units\.$/m);
    expect(pasted.stdout).toMatch(/ assistant: Noted, Ada\.$/m);

    // The README's agent loop: a prompt before each model call, the turn published after it.
    const loop = /<!-- example:agent-loop -->\n```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(loop).toBeDefined();
    const looped = spawnSync('bash', ['-c', loop!], {
      cwd: resolve(__dirname, '../..'),
      env: { ...process.env, NATS_URL: nats.url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(looped.stderr).toBe('');
    expect(looped.status).toBe(0);
    expect(looped.stdout.match(/^prompt: \d+ of 96000 tokens \(identity, tools.*\)$/gm)).toHaveLength(2);
    expect(looped.stdout).toMatch(
      /^assistant: \(\d+ messages in\) Glad to help with: Where is my order 1042\?$/m,
    );

    // The README's HTTP example: a key from the CLI, a turn and a search with curl.
    const http = /<!-- example:http-api -->\n```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(http).toBeDefined();
    const curled = spawnSync('bash', ['-c', http!], {
      cwd: resolve(__dirname, '../..'),
      env: {
        ...process.env,
        NATS_URL: nats.url,
        DATABASE_URL: db.appUrl,
        ENGRAM_API_URL: `http://127.0.0.1:${DEFAULT_HTTP_PORTS.api + offset}`,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(curled.status).toBe(0);
    expect(curled.stdout).toMatch(/^\{"stream":"TURNS","seq":\d+,"duplicate":false\}$/m);
    const answer = JSON.parse(curled.stdout.trim().split('\n').pop()!) as {
      hits: Array<{ content: string }>;
    };
    expect(answer.hits[0]?.content).toBe('My bike is a green Brompton.');

    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(DEFAULT_HTTP_PORTS)) {
      await expect(request(`http://127.0.0.1:${port + offset}/health/live`)).rejects.toThrow();
    }
  }, 120_000);
});
