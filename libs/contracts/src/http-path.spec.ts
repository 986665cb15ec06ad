import { httpPath, Rpcs } from './rpcs';
import { MsgIds } from './topology';

describe('httpPath', () => {
  it('turns a memory RPC subject into its route', () => {
    expect(httpPath(Rpcs.search)).toBe('/v1/search');
    expect(httpPath(Rpcs.beingScenesAdd)).toBe('/v1/being/scenes/add');
    expect(httpPath(Rpcs.beingClustersRecall)).toBe('/v1/being/clusters/recall');
  });

  it('gives no route to the infrastructure RPCs that serve every tenant', () => {
    expect(() => httpPath(Rpcs.gertyEmbed)).toThrow('gerty.rpc.embed is not served over HTTP');
  });

  it('gives every tenant-scoped memory RPC a route of its own', () => {
    const paths = Object.values(Rpcs)
      .filter((spec) => spec.subject.startsWith('mem.rpc.'))
      .map(httpPath);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('MsgIds.turn', () => {
  it('names tenant, agent and conversation: equal turn ids elsewhere are never duplicates', () => {
    const ids = new Set([
      MsgIds.turn('acme', 'bot', 'chat-1', 'turn-1'),
      MsgIds.turn('acme', 'bot', 'chat-2', 'turn-1'),
      MsgIds.turn('acme', 'other', 'chat-1', 'turn-1'),
      MsgIds.turn('globex', 'bot', 'chat-1', 'turn-1'),
    ]);
    expect(ids.size).toBe(4);
    expect(MsgIds.turn('acme', 'bot', 'chat-1', 'turn-1')).toBe(
      MsgIds.turn('acme', 'bot', 'chat-1', 'turn-1'),
    );
  });
});
