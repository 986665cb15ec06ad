import { Rpcs } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { LOCAL_EMBEDDING_MODEL_ID, LocalEmbedder } from '@engram/local-model';
import { RpcError, type RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import type { RetrievalConfig } from '../retrieval.config';
import { QueryVectorGateway } from './query-vector.gateway';

/** Against the real built-in model (the binary `npx nx run local-model:assets` builds). */
describe('QueryVectorGateway', () => {
  const config = { SEARCH_EMBED_TIMEOUT_MS: 1500, EMBEDDING_DIMENSIONS: 100 } as RetrievalConfig;
  const builtin = LocalEmbedder.load();
  const listing = (provider: string, modelId: string, dimensions = 100) => ({
    models: [{ name: 'default', provider, modelId, embeds: true, dimensions }],
    defaultEmbeddingModel: 'default',
  });
  const gerty = {
    vectors: (texts: string[]) => ({
      vectors: texts.map(() => ({ values: Array.from({ length: 100 }, (_, i) => i / 100) })),
      model: 'openai:e',
      dimensions: 100,
    }),
  };

  function gatewayOf(models: () => Promise<unknown>) {
    const calls: unknown[] = [];
    const rpc = {
      call: (spec: unknown, request: { texts?: string[] }) => {
        calls.push(spec);
        return spec === Rpcs.gertyModelsList ? models() : Promise.resolve(gerty.vectors(request.texts ?? []));
      },
    } as unknown as RpcClient;
    return { gateway: new QueryVectorGateway(new GertyClient(rpc, new ReadinessRegistry()), config), calls };
  }

  it("makes the built-in model's vector itself, the same as Gerty's, when Gerty's default is the built-in model", async () => {
    const { gateway, calls } = gatewayOf(async () => listing('builtin', LOCAL_EMBEDDING_MODEL_ID));
    const first = await gateway.embed('where did Ada park the car?', 'acme');
    const second = await gateway.embed('cats and dogs', 'acme');
    expect(first).toEqual({
      vector: Array.from(builtin.embed(['where did Ada park the car?'])[0]!),
      model: LOCAL_EMBEDDING_MODEL_ID,
    });
    expect(second).toEqual({
      vector: Array.from(builtin.embed(['cats and dogs'])[0]!),
      model: LOCAL_EMBEDDING_MODEL_ID,
    });
    expect(calls).toEqual([Rpcs.gertyModelsList]);
  });

  it('makes the vector only once it is awaited', async () => {
    const { gateway } = gatewayOf(async () => listing('builtin', LOCAL_EMBEDDING_MODEL_ID));
    await gateway.embed('warm', 'acme');
    const embed = jest.spyOn(LocalEmbedder.prototype, 'embed');
    try {
      const vector = gateway.embed('never needed', 'acme');
      expect(embed).not.toHaveBeenCalled();
      await vector;
      expect(embed).toHaveBeenCalledTimes(1);
    } finally {
      embed.mockRestore();
    }
  });

  it('asks Gerty for every vector when its default is another model', async () => {
    const { gateway, calls } = gatewayOf(async () => listing('openai', 'openai:e'));
    const res = await gateway.embed('cats', 'acme');
    await gateway.embed('dogs', 'acme');
    expect(res).toMatchObject({ model: 'openai:e' });
    expect(calls).toEqual([Rpcs.gertyModelsList, Rpcs.gertyEmbed, Rpcs.gertyEmbed]);
  });

  it('asks Gerty for the vector when Gerty could not list its models', async () => {
    const { gateway, calls } = gatewayOf(() =>
      Promise.reject(new RpcError('UNAVAILABLE', 'no service answers')),
    );
    expect(await gateway.embed('cats', 'acme')).toMatchObject({ model: 'openai:e' });
    expect(calls).toEqual([Rpcs.gertyModelsList, Rpcs.gertyEmbed]);
  });

  it('asks for the listing again about a second after it failed, then makes the vectors itself', async () => {
    jest.useFakeTimers();
    try {
      let answers = 0;
      const { gateway, calls } = gatewayOf(() =>
        answers++ === 0
          ? Promise.reject(new RpcError('UNAVAILABLE', 'no service answers'))
          : Promise.resolve(listing('builtin', LOCAL_EMBEDDING_MODEL_ID)),
      );
      expect(await gateway.embed('cats', 'acme')).toMatchObject({ model: 'openai:e' });
      // A second, give or take retryDelayMs' 20 % jitter.
      await jest.advanceTimersByTimeAsync(1_200);
      expect(await gateway.embed('dogs', 'acme')).toMatchObject({ model: LOCAL_EMBEDDING_MODEL_ID });
      expect(calls).toEqual([Rpcs.gertyModelsList, Rpcs.gertyEmbed, Rpcs.gertyModelsList]);
      gateway.onApplicationShutdown();
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not take a built-in model of another id or width for its own', async () => {
    for (const other of [
      listing('builtin', 'engram-local-glove-sif-100d-v0'),
      listing('builtin', LOCAL_EMBEDDING_MODEL_ID, 300),
    ]) {
      const { gateway, calls } = gatewayOf(async () => other);
      await gateway.embed('cats', 'acme');
      expect(calls).toEqual([Rpcs.gertyModelsList, Rpcs.gertyEmbed]);
    }
  });
});
