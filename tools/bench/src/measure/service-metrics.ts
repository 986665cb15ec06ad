/** What the ingest process says about itself on /metrics (Prometheus text format). */
export interface ConsumerMetrics {
  /** Batches handled by the turn consumer, and the handler time they took in total. */
  readonly batches: number;
  readonly handlerSeconds: number;
  /** Messages settled, by outcome (ack, retry, dead_letter). */
  readonly outcomes: Record<string, number>;
}

export async function scrapeConsumerMetrics(httpPort: number, consumer: string): Promise<ConsumerMetrics> {
  const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
  const value = (name: string, labels: Record<string, string>): number => {
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
      if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
        sum += Number(line.split(' ').pop());
    }
    return sum;
  };
  const outcomes: Record<string, number> = {};
  for (const outcome of ['ack', 'retry', 'dead_letter']) {
    outcomes[outcome] = value('engram_consumer_messages_total', { consumer, outcome });
  }
  return {
    batches: value('engram_consumer_handler_seconds_count', { consumer }),
    handlerSeconds: value('engram_consumer_handler_seconds_sum', { consumer }),
    outcomes,
  };
}
