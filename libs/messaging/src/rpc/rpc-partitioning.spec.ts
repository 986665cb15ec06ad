import { ConfigError } from '@engram/config';
import { Rpcs } from '@engram/contracts';
import { endpointSubjects, ordinalOfHostname, rpcPartitioningFrom } from './rpc-partitioning';

describe('ordinalOfHostname', () => {
  it('reads the ordinal a StatefulSet ends its pods’ names with', () => {
    expect(ordinalOfHostname('retrieval-0')).toBe(0);
    expect(ordinalOfHostname('engram-retrieval-12')).toBe(12);
  });

  it('finds none in other names', () => {
    expect(ordinalOfHostname('retrieval-7d9f8b6c5-x2x4z')).toBeUndefined();
    expect(ordinalOfHostname('laptop')).toBeUndefined();
    expect(ordinalOfHostname(undefined)).toBeUndefined();
  });
});

describe('rpcPartitioningFrom', () => {
  it('is off when RPC_PARTITIONS is 0 or unset', () => {
    expect(rpcPartitioningFrom({})).toBeUndefined();
    expect(rpcPartitioningFrom({ RPC_PARTITIONS: 0, RPC_REPLICA: 1, RPC_REPLICAS: 3 })).toBeUndefined();
  });

  it('serves the partitions of RPC_REPLICA of RPC_REPLICAS', () => {
    expect(rpcPartitioningFrom({ RPC_PARTITIONS: 6, RPC_REPLICAS: 3, RPC_REPLICA: 2 })).toEqual({
      partitions: 6,
      replica: 2,
      replicas: 3,
      served: [0, 2, 3, 5],
    });
  });

  it('takes the replica from HOSTNAME when RPC_REPLICA is unset, and RPC_REPLICA over it', () => {
    const config = { RPC_PARTITIONS: 4, RPC_REPLICAS: 2, HOSTNAME: 'retrieval-1' };
    expect(rpcPartitioningFrom(config)?.replica).toBe(1);
    expect(rpcPartitioningFrom({ ...config, RPC_REPLICA: 0 })?.replica).toBe(0);
  });

  it('serves every partition as the one replica by default', () => {
    expect(rpcPartitioningFrom({ RPC_PARTITIONS: 3, HOSTNAME: 'retrieval-0' })?.served).toEqual([0, 1, 2]);
  });

  it('refuses a replica it cannot place', () => {
    expect(() => rpcPartitioningFrom({ RPC_PARTITIONS: 4, HOSTNAME: 'laptop' })).toThrow(ConfigError);
    expect(() => rpcPartitioningFrom({ RPC_PARTITIONS: 4, HOSTNAME: 'laptop' })).toThrow(
      /RPC_REPLICA=\(unset\): RPC_PARTITIONS is 4/,
    );
    expect(() =>
      rpcPartitioningFrom({ RPC_PARTITIONS: 4, RPC_REPLICAS: 2, HOSTNAME: 'retrieval-2' }),
    ).toThrow('RPC_REPLICA=2: must be below RPC_REPLICAS (2), taken from HOSTNAME retrieval-2');
  });
});

describe('endpointSubjects', () => {
  const partitioning = { partitions: 6, replica: 0, replicas: 3, served: [0, 1, 3, 4] };

  it('is the tenant wildcard for an RPC that is not partitioned, partitioning or not', () => {
    expect(endpointSubjects(Rpcs.browse, undefined)).toEqual(['mem.rpc.browse.*']);
    expect(endpointSubjects(Rpcs.browse, partitioning)).toEqual(['mem.rpc.browse.*']);
  });

  it('answers a partitioned RPC on every partition, mapped or not, when partitioning is off', () => {
    expect(endpointSubjects(Rpcs.search, undefined)).toEqual(['mem.rpc.search.*', 'mem.rpcp.search.*.*']);
  });

  it('answers a partitioned RPC on the partitions served, and unmapped, when partitioning is on', () => {
    expect(endpointSubjects(Rpcs.search, partitioning)).toEqual([
      'mem.rpc.search.*',
      'mem.rpcp.search.0.*',
      'mem.rpcp.search.1.*',
      'mem.rpcp.search.3.*',
      'mem.rpcp.search.4.*',
    ]);
  });
});
