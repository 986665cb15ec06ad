import { Rpcs as CurrentRpcs, type RpcSpec } from '@engram/contracts';
import { Rpcs } from './rpcs';

describe("the SDK's Rpcs", () => {
  const former = Object.entries<RpcSpec>(Rpcs).filter(([key]) => !(key in CurrentRpcs));

  it('keeps every renamed RPC under its former key, calling its current subject', () => {
    for (const [key, spec] of former)
      expect({ key, formerly: spec.aliases.length > 0 }).toEqual({ key, formerly: true });
    const formerSubjects = former.flatMap(([, spec]) => spec.aliases);
    const allAliases = Object.values<RpcSpec>(CurrentRpcs).flatMap((spec) => spec.aliases);
    expect(formerSubjects.sort()).toEqual(allAliases.sort());
  });

  it('answers the former key of drill-down with expand', () => {
    expect(Rpcs.recall).toBe(CurrentRpcs.expand);
    expect(Rpcs.recall.subject).toBe('mem.rpc.expand');
  });
});
