import { resolve } from 'node:path';
import { RPC_PARTITIONS, Rpcs, rpcPartitionSubject, tenantPartition } from '@engram/contracts';
import { EngramClient, EngramError } from '@engram/client';
import { callRpc } from '@engram/messaging';
import {
  startService,
  startTestEnvironment,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

const NATS_CONFIG = resolve(__dirname, '../../../deploy/nats/engram.conf');
const TENANTS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark'];
const CLIENTS = 6;
/** Per attempt: a search here takes milliseconds, so an attempt this late was lost with its replica. */
const ATTEMPT_TIMEOUT_MS = 2000;
const LOAD_BEFORE_KILL_MS = 1500;
const LOAD_AFTER_KILL_MS = 4000;

interface Outcome {
  readonly tenant: string;
  readonly sentAt: number;
  readonly answeredAt: number;
  /** Why the search failed, after the client's own retry. */
  readonly failure?: string;
}

/**
 * memory_search spread over two real retrieval processes by nats-server's own subject mapping
 * (deploy/nats/engram.conf, 12 partitions): replicas 0 and 1 of 2, so both serve every
 * partition. Closed-loop clients search while replica 0 is SIGKILLed.
 */
describe('partitioned search: a replica SIGKILLed under load (real processes, nats-server mappings)', () => {
  let env: TestEnvironment;
  const replicas: ServiceProcess[] = [];
  /** An agent runtime's SDK client per tenant: it asks a read again once when its answer is lost. */
  const clients = new Map<string, EngramClient>();

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'partitioned_search', natsConfigFile: NATS_CONFIG });
    await seed(env);
    for (const replica of [0, 1])
      replicas.push(
        await startService('retrieval', {
          ...env.env,
          RPC_PARTITIONS: String(RPC_PARTITIONS),
          RPC_REPLICAS: '2',
          RPC_REPLICA: String(replica),
          // No Gerty here: searches answer from full text at once instead of waiting for a vector.
          SEARCH_EMBED_TIMEOUT_MS: '100',
        }),
      );
    await Promise.all(replicas.map((r) => r.waitUntilReady()));
    for (const tenant of TENANTS)
      clients.set(
        tenant,
        await EngramClient.connect({
          servers: env.env['NATS_URL']!,
          tenant,
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          retry: { retries: 1, baseDelayMs: 10, maxDelayMs: 10 },
        }),
      );
  });

  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    for (const r of replicas) r.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await env?.stop();
  });

  it('each replica says it answers every partition, as replica 0 and 1 of 2', () => {
    const all = Array.from({ length: RPC_PARTITIONS }, (_, p) => p).join(', ');
    replicas.forEach((r, i) =>
      expect(r.output()).toContain(
        `partitions ${all} of ${RPC_PARTITIONS} (mem.rpcp.search.{p}.*) as replica ${i} of 2`,
      ),
    );
  });

  it('delivers each tenant’s search on the partition nats-server computes, and answers it', async () => {
    const seen: string[] = [];
    const watch = env.nc.subscribe(rpcPartitionSubject(Rpcs.search, '*'), {
      callback: (_, msg) => void seen.push(msg.subject),
    });
    for (const tenant of TENANTS) {
      const response = await search(tenant);
      expect(response.hits.map((h) => h.content)).toContain(`${tenant} keeps the kettle on the shelf`);
    }
    watch.unsubscribe();
    expect(seen).toEqual(
      TENANTS.map((tenant) =>
        rpcPartitionSubject(Rpcs.search, tenantPartition(tenant, RPC_PARTITIONS), tenant),
      ),
    );
  });

  it("fails no search beyond the client's one retry, and answers every tenant again within 5 s of the kill", async () => {
    const [doomed, survivor] = replicas as [ServiceProcess, ServiceProcess];
    const outcomes: Outcome[] = [];
    let stopAt = Infinity;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; Date.now() < stopAt; i++)
        outcomes.push(await searchThroughClient(TENANTS[i % TENANTS.length]!));
    });

    await sleep(LOAD_BEFORE_KILL_MS);
    const answeredBefore = await Promise.all(replicas.map(searchesAnswered));
    doomed.kill('SIGKILL');
    const killedAt = Date.now();
    stopAt = killedAt + LOAD_AFTER_KILL_MS;
    await Promise.all(clients);
    expect(await doomed.exited).toBe('SIGKILL');

    // Both replicas were answering when one was killed.
    expect(answeredBefore.every((n) => n > 0)).toBe(true);
    expect(outcomes.filter((o) => o.failure)).toEqual([]);
    // Only what the killed replica held at that moment was lost and asked again (an answer later
    // than one attempt's timeout): at most one request per client.
    const retried = outcomes.filter((o) => o.answeredAt - o.sentAt >= ATTEMPT_TIMEOUT_MS);
    expect(retried.length).toBeLessThanOrEqual(CLIENTS);
    const answeredAgainMs = Object.fromEntries(
      TENANTS.map((tenant) => {
        const first = outcomes.find((o) => o.tenant === tenant && o.sentAt >= killedAt);
        return [tenant, first ? first.answeredAt - killedAt : Infinity];
      }),
    );
    for (const tenant of TENANTS)
      expect({ tenant, ms: answeredAgainMs[tenant]! < 5000 }).toEqual({ tenant, ms: true });
    expect(await searchesAnswered(survivor)).toBeGreaterThan(answeredBefore[1]!);
    console.log(
      `partitioned search failover: ${outcomes.length} searches, ${retried.length} asked again after their replica died, every tenant answered again within ${Math.max(...Object.values(answeredAgainMs))} ms of the kill`,
    );
  });

  function search(tenant: string) {
    return callRpc(
      env.nc,
      Rpcs.search,
      { query: 'kettle', recordAccess: false },
      { tenantId: tenant, timeoutMs: ATTEMPT_TIMEOUT_MS },
    );
  }

  /** One search as an agent runtime makes it, through the SDK (which retries a lost read once). */
  async function searchThroughClient(tenant: string): Promise<Outcome> {
    const sentAt = Date.now();
    try {
      await clients.get(tenant)!.search({ query: 'kettle', recordAccess: false });
      return { tenant, sentAt, answeredAt: Date.now() };
    } catch (error) {
      const failure = error instanceof EngramError ? error.code : String(error);
      return { tenant, sentAt, answeredAt: Date.now(), failure };
    }
  }
});

/** Searches a replica answered successfully, from its /metrics. */
async function searchesAnswered(replica: ServiceProcess): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${replica.httpPort}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find(
      (l) =>
        l.startsWith('engram_rpc_requests_total{') &&
        l.includes('rpc="mem.rpc.search"') &&
        l.includes('code="OK"'),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Each tenant: one conversation of a few messages, one of them about a kettle. */
async function seed(env: TestEnvironment): Promise<void> {
  for (const tenant of TENANTS) {
    await env.sql(`INSERT INTO tenants (tenant_id) VALUES ($1)`, [tenant]);
    const [conversation] = await env.sql<{ id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ($1, 'helper', 'chat-1') RETURNING id::text`,
      [tenant],
    );
    const contents = [
      `${tenant} keeps the kettle on the shelf`,
      'the meeting moved to Thursday',
      'lunch was soup',
    ];
    for (const [i, content] of contents.entries())
      await env.sql(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ($1, $2, 'helper', $3, 0, $4::bigint, 'user', $5, 8, now() - interval '1 hour' + $4::int * interval '1 second')`,
        [tenant, conversation!.id, `t${i}`, i + 1, content],
      );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
