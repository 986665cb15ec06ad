import {
  natsMappingsBlock,
  partitionedRpcs,
  rpcPartitionMappings,
  rpcPartitionSubject,
  servedPartitions,
  tenantPartition,
} from './rpc-partitions';
import { Rpcs } from './rpcs';
import { tenantOfSubject } from './subjects';

describe('partitioned RPCs', () => {
  it('are the tenant-scoped RPCs answered from the in-memory index: search', () => {
    expect(partitionedRpcs().map((spec) => spec.subject)).toEqual(['mem.rpc.search']);
    expect(partitionedRpcs().every((spec) => spec.tenantScoped)).toBe(true);
  });
});

describe('rpcPartitionSubject', () => {
  it('puts the partition before the tenant, which stays the last token', () => {
    const subject = rpcPartitionSubject(Rpcs.search, 3, 'acme');
    expect(subject).toBe('mem.rpcp.search.3.acme');
    expect(tenantOfSubject(subject)).toBe('acme');
    expect(rpcPartitionSubject(Rpcs.search, '*')).toBe('mem.rpcp.search.*.*');
  });

  it('refuses an RPC that is not partitioned', () => {
    expect(() => rpcPartitionSubject(Rpcs.browse, 0)).toThrow('mem.rpc.browse is not a partitioned RPC');
  });
});

describe('the NATS mappings', () => {
  it('map every partitioned RPC onto partition(n) of its tenant token', () => {
    expect(rpcPartitionMappings(4)).toEqual({
      'mem.rpc.search.*': 'mem.rpcp.search.{{partition(4,1)}}.{{wildcard(1)}}',
    });
  });

  it('render as a nats-server configuration block', () => {
    expect(natsMappingsBlock(12)).toBe(
      [
        'mappings = {',
        '  "mem.rpc.search.*": "mem.rpcp.search.{{partition(12,1)}}.{{wildcard(1)}}"',
        '}',
      ].join('\n'),
    );
  });

  it('need at least one partition', () => {
    expect(() => rpcPartitionMappings(0)).toThrow('partitions must be a whole number ≥ 1');
  });
});

describe('servedPartitions', () => {
  it('gives one replica every partition', () => {
    expect(servedPartitions(0, 1, 4)).toEqual([0, 1, 2, 3]);
  });

  it('gives each of two replicas every partition (each partition has both)', () => {
    expect(servedPartitions(0, 2, 4)).toEqual([0, 1, 2, 3]);
    expect(servedPartitions(1, 2, 4)).toEqual([0, 1, 2, 3]);
  });

  it('gives replica i of three the partitions p with p mod 3 in {i, i + 1 mod 3}', () => {
    expect(servedPartitions(0, 3, 6)).toEqual([0, 1, 3, 4]);
    expect(servedPartitions(1, 3, 6)).toEqual([1, 2, 4, 5]);
    expect(servedPartitions(2, 3, 6)).toEqual([0, 2, 3, 5]);
  });

  it.each([
    [2, 12],
    [3, 12],
    [4, 12],
    [5, 12],
    [7, 12],
  ])('with %i replicas of %i partitions, serves every partition by exactly two replicas', (replicas, n) => {
    const servers = Array.from({ length: n }, () => 0);
    for (let replica = 0; replica < replicas; replica++)
      for (const p of servedPartitions(replica, replicas, n)) servers[p]!++;
    expect(servers).toEqual(Array.from({ length: n }, () => 2));
  });

  it('refuses a replica outside 0 … replicas − 1', () => {
    expect(() => servedPartitions(2, 2, 4)).toThrow('replica must be 0 … 1, not 2');
    expect(() => servedPartitions(0, 0, 4)).toThrow('replicas must be ≥ 1');
  });
});

describe('tenantPartition', () => {
  // Observed on nats-server 2.9.10 with the mapping of 12 partitions.
  it.each([
    ['acme', 7],
    ['globex', 10],
    ['tenant-x', 4],
    ['A_b-9', 3],
    ['q', 0],
    ['bench_1', 1],
  ])('puts %s where nats-server does (%i of 12)', (tenant, partition) => {
    expect(tenantPartition(tenant, 12)).toBe(partition);
  });
});
