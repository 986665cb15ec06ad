/**
 * Runs `count` requests with `clients` of them in flight at once (a closed loop: each client
 * sends its next request when its last one answered), and answers each one's latency in ms.
 * Request i is `send(i)`; a failure stops the run.
 */
export async function closedLoop(
  count: number,
  clients: number,
  send: (index: number) => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const client = async () => {
    for (let i = next++; i < count; i = next++) {
      const started = performance.now();
      await send(i);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, count) }, client));
  return latencies;
}
