import { createServer, type Server } from 'node:net';
import { freePort } from './free-port';

/** Parallel suites must never be handed the same port: each jest worker draws from its own block. */
describe('freePort', () => {
  const block = (port: number) => Math.floor((port - 20_000) / 1_500);
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });

  it("hands out distinct ports from this worker's block, below the kernel's ephemeral range", async () => {
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(block(port)).toBe(Number(process.env.JEST_WORKER_ID ?? 0) % 8);
      expect(port).toBeLessThan(32_768);
    }
  });

  it('skips a port something listens on', async () => {
    const taken = await freePort();
    const server = await listen(taken);
    try {
      for (let i = 0; i < 1_500; i++) expect(await freePort()).not.toBe(taken);
    } finally {
      server.close();
    }
  });
});
