import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { RPC_PARTITIONS, Rpcs, servedPartitions, tenantPartition } from '@engram/contracts';
import { startNatsServer, type NatsServerHandle } from '@engram/testing';
import { callRpc } from './rpc.client';
import { RpcEndpoint } from './rpc.endpoint';
import type { RpcPartitioning } from './rpc-partitioning';

const NATS_CONFIG = resolve(__dirname, '../../../../deploy/nats/engram.conf');
const LIMITS = { concurrency: 8, maxQueued: 100 };
const ACME = tenantPartition('acme', RPC_PARTITIONS);

/** Serving only `partitions`, as replica 0 of 1 would with that list. */
const serving = (partitions: readonly number[]): RpcPartitioning => ({
  partitions: RPC_PARTITIONS,
  replica: 0,
  replicas: 1,
  served: partitions,
});

/**
 * memory_search endpoints (no service behind them: each counts what it answers) on a real
 * nats-server, with the generated mappings (deploy/nats/engram.conf) and without.
 */
describe('partitioned RPC endpoints (real nats-server)', () => {
  const servers: NatsServerHandle[] = [];
  const connections: NatsConnection[] = [];
  const endpoints: RpcEndpoint[] = [];
  const warnings: string[] = [];

  beforeAll(() => {
    Logger.overrideLogger({
      log: () => undefined,
      error: () => undefined,
      warn: (m) => void warnings.push(String(m)),
    });
  });

  afterEach(async () => {
    warnings.length = 0;
    await Promise.all(endpoints.splice(0).map((e) => e.stop(1000)));
    await Promise.all(connections.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  async function server(mapped: boolean): Promise<NatsConnection> {
    const nats = await startNatsServer(mapped ? { configFile: NATS_CONFIG } : {});
    servers.push(nats);
    const nc = await connect({ servers: nats.url });
    connections.push(nc);
    return nc;
  }

  /** An endpoint of its own connection (as a replica has); the returned list gets the tenant of each request it answers. */
  async function endpoint(nc: NatsConnection, partitioning?: RpcPartitioning): Promise<string[]> {
    const answered: string[] = [];
    const own = await connect({ servers: nc.getServer() });
    connections.push(own);
    const e = new RpcEndpoint(
      Rpcs.search,
      'test',
      async (_, ctx) => {
        answered.push(ctx.tenantId);
        return { hits: [] };
      },
      LIMITS,
      partitioning,
    );
    e.start(own);
    await own.flush();
    endpoints.push(e);
    return answered;
  }

  const search = (nc: NatsConnection, tenantId: string) =>
    callRpc(nc, Rpcs.search, { query: 'kettle' }, { tenantId, timeoutMs: 2000 });

  it('with partitioning off, answers whether nats-server maps the subject or not', async () => {
    for (const mapped of [true, false]) {
      const nc = await server(mapped);
      const answered = await endpoint(nc);
      await search(nc, 'acme');
      expect({ mapped, answered }).toEqual({ mapped, answered: ['acme'] });
    }
  });

  it('with partitioning on, answers only the partitions it serves', async () => {
    const nc = await server(true);
    await endpoint(nc, serving([(ACME + 1) % RPC_PARTITIONS]));
    await expect(search(nc, 'acme')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const answered = await endpoint(nc, serving([ACME]));
    await search(nc, 'acme');
    expect(answered).toEqual(['acme']);
    expect(warnings).toEqual([]);
  });

  it('with partitioning on and a nats-server without the mapping, still answers every tenant', async () => {
    const nc = await server(false);
    const answered = await endpoint(nc, serving([(ACME + 1) % RPC_PARTITIONS]));
    await search(nc, 'acme');
    expect(answered).toEqual(['acme']);
    expect(warnings).toEqual([
      `mem.rpc.search.acme arrived unmapped: nats-server has no partition mapping for mem.rpc.search.* (RPC_PARTITIONS is ${RPC_PARTITIONS}), so every replica answers every tenant`,
    ]);
  });

  it('answers each request once among replicas of every kind: one queue group over all subjects', async () => {
    const nc = await server(true);
    const replicas = [
      await endpoint(nc, { ...serving(servedPartitions(0, 2, RPC_PARTITIONS)), replicas: 2 }),
      await endpoint(nc, { ...serving(servedPartitions(1, 2, RPC_PARTITIONS)), replica: 1, replicas: 2 }),
      await endpoint(nc),
    ];
    const tenants = Array.from({ length: 120 }, (_, i) => `tenant-${i}`);
    await Promise.all(tenants.map((t) => search(nc, t)));
    expect(replicas.flat().sort()).toEqual([...tenants].sort());
    // Each replica took a share: NATS spreads a queue group's messages over its members.
    expect(replicas.every((answered) => answered.length > 0)).toBe(true);
  });

  it('with three replicas, answers every tenant after any one of them stopped', async () => {
    const nc = await server(true);
    const tenants = Array.from({ length: 60 }, (_, i) => `tenant-${i}`);
    expect(new Set(tenants.map((t) => tenantPartition(t, RPC_PARTITIONS))).size).toBe(RPC_PARTITIONS);
    for (let stopped = 0; stopped < 3; stopped++) {
      const answered: string[][] = [];
      for (let replica = 0; replica < 3; replica++)
        answered.push(
          await endpoint(nc, {
            partitions: RPC_PARTITIONS,
            replica,
            replicas: 3,
            served: servedPartitions(replica, 3, RPC_PARTITIONS),
          }),
        );
      await endpoints[stopped]!.stop(1000);
      await Promise.all(tenants.map((t) => search(nc, t)));
      expect({ stopped, answered: answered.flat().sort() }).toEqual({
        stopped,
        answered: [...tenants].sort(),
      });
      expect(answered[stopped]).toEqual([]);
      await Promise.all(endpoints.splice(0).map((e) => e.stop(1000)));
    }
  });
});
