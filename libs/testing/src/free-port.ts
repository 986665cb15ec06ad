import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/** Ports a process draws from: one block per jest worker, all below Linux's ephemeral range (32768–60999). */
const FIRST_PORT = 20_000;
const BLOCK = 1_500;
/** Where this process's next draw starts in its block (random, so a suite does not retry the last one's ports first). */
let next = randomInt(BLOCK);

/**
 * A TCP port nothing listens on right now, and that no other jest worker will be handed: each
 * worker draws from its own block, in turn. A port the kernel hands out (listen on 0) could be
 * handed to a suite in the other worker too, or taken by an outgoing connection, before the
 * process it was meant for binds it; then a readiness probe could reach another suite's service.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0) % 8;
  const base = FIRST_PORT + worker * BLOCK;
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = base + (next++ % BLOCK);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + BLOCK - 1}`);
}

/** Whether a server can listen on the port now (nothing else holds it). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Resolves after `ms` (at once when it is not positive). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
