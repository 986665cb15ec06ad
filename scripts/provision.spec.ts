import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Behaviour of scripts/provision.sh as a user sees it. Every case runs with
 * --skip-node and is built so that the script can never install anything
 * (check-only, non-Debian, or a remote host).
 */
const SCRIPT = join(__dirname, 'provision.sh');

interface Run {
  status: number | null;
  output: string;
}

function provision(args: string[], env: Record<string, string> = {}): Run {
  const r = spawnSync('bash', [SCRIPT, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** A local TCP port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

describe('scripts/provision.sh', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-provision-spec-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('--check reports the real local postgres (with pgvector) and nats (with jetstream) as ready', () => {
    const r = provision(['--check', '--skip-node']);

    expect(r.output).toMatch(/postgres \d+(\.\d+)* \(pgvector \d+\.\d+(\.\d+)?\)/);
    expect(r.output).toMatch(/nats \d+(\.\d+)* \(jetstream\)/);
    expect(r.output).toMatch(/ready/);
    expect(r.output).not.toMatch(/MISSING/);
    expect(r.status).toBe(0);
  });

  it('refuses to install on a non-Debian system and points to docker compose (exit 2)', async () => {
    const osRelease = join(dir, 'os-release');
    writeFileSync(osRelease, 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.20.0\n');
    const port = await freePort();

    const r = provision(['--skip-node'], {
      ENGRAM_OS_RELEASE_FILE: osRelease,
      NATS_URL: `nats://127.0.0.1:${port}`,
    });

    expect(r.output).toContain(`127.0.0.1:${port}`);
    expect(r.output).toContain('docker compose up');
    expect(r.output).toMatch(/nothing was installed/i);
    expect(r.output).not.toMatch(/\bapt(-get)?\b/);
    expect(r.status).toBe(2);
  });

  it('never tries to install for an unreachable remote NATS host (exit 2)', () => {
    const started = Date.now();

    const r = provision(['--skip-node'], { NATS_URL: 'nats://10.255.255.1:4222' });

    expect(r.output).toContain('10.255.255.1:4222');
    expect(r.output).toMatch(/not on this machine/);
    expect(r.output).not.toMatch(/\bapt(-get)?\b/);
    expect(r.output).not.toMatch(/installing|starting nats-server/);
    expect(r.status).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects an unknown option with usage help', () => {
    const r = provision(['--no-such-flag']);

    expect(r.output).toContain('unknown option: --no-such-flag');
    expect(r.output).toContain('Usage: scripts/provision.sh');
    expect(r.status).toBe(64);
  });
});
