/**
 * A sum over the samples of one metric on a service's /metrics (Prometheus text format)
 * whose labels include every one of `labels`.
 */
export async function scrapeMetricSums(
  httpPort: number,
  queries: Record<string, { readonly name: string; readonly labels?: Record<string, string> }>,
): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
  const lines = text.split('\n');
  const out: Record<string, number> = {};
  for (const [key, { name, labels = {} }] of Object.entries(queries)) {
    let sum = 0;
    for (const line of lines) {
      if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
      if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
        sum += Number(line.split(' ').pop());
    }
    out[key] = sum;
  }
  return out;
}
