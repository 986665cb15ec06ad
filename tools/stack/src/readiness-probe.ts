import { request } from 'undici';

/** Polls a service's /health/ready until it answers 200; false if the deadline passes first. */
export async function waitUntilReady(
  port: number,
  deadlineMs: number,
  stopped: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline && !stopped()) {
    try {
      const { statusCode, body } = await request(`http://127.0.0.1:${port}/health/ready`, {
        headersTimeout: 2000,
      });
      await body.dump();
      if (statusCode === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
