/**
 * Compiled, never run (handlers.decorators.spec.ts type-checks it): every handler under
 * `@ts-expect-error` has a shape its decorator must refuse, every other one a shape it
 * must accept. An expected error that does not occur is itself an error, so a decorator
 * that starts accepting a wrong shape fails the spec.
 */
import {
  Consumers,
  Rpcs,
  type BrowseRequest,
  type MessageInitShape,
  type MessageStored,
  type SearchRequest,
  type SearchResponseSchema,
  type StatsRequest,
  type SummaryCreated,
  type TurnEvent,
} from '@engram/contracts';
import type { Delivery } from './consumers/delivery';
import { ConsumeEventBatches, ConsumeEvents, HandleRpc } from './handlers.decorators';
import type { RpcCallContext } from './rpc/rpc.endpoint';

type SearchResponseInit = MessageInitShape<typeof SearchResponseSchema>;
declare const answer: SearchResponseInit;

export class RpcHandlers {
  @HandleRpc(Rpcs.search)
  async right(_request: SearchRequest, _ctx: RpcCallContext): Promise<SearchResponseInit> {
    return answer;
  }

  @HandleRpc(Rpcs.search)
  async withoutContext(_request: SearchRequest) {
    return { hits: [], degraded: false };
  }

  @HandleRpc(Rpcs.gertyModelsList)
  async withoutParameters() {
    return { models: [], defaultEmbeddingModel: 'local', defaultCompletionModel: 'local' };
  }

  // @ts-expect-error -- the request of another RPC
  @HandleRpc(Rpcs.search)
  async wrongRequest(_request: BrowseRequest) {
    return answer;
  }

  // @ts-expect-error -- a request and a context swapped
  @HandleRpc(Rpcs.search)
  async swapped(_ctx: RpcCallContext, _request: SearchRequest) {
    return answer;
  }

  // @ts-expect-error -- the response of another RPC (stats answers counts, not hits)
  @HandleRpc(Rpcs.statsGet)
  async wrongResponse(_request: StatsRequest) {
    return answer;
  }

  // @ts-expect-error -- a field of the wrong type in the response
  @HandleRpc(Rpcs.search)
  async wrongField(_request: SearchRequest) {
    return { hits: 3 };
  }

  // @ts-expect-error -- not a Promise
  @HandleRpc(Rpcs.search)
  notAsync(_request: SearchRequest): SearchResponseInit {
    return answer;
  }
}

export class EventHandlers {
  @ConsumeEventBatches(Consumers.compactorSummaries)
  async batch(_deliveries: Delivery<MessageStored>[]): Promise<void> {}

  @ConsumeEvents(Consumers.compactorSummaries)
  async single(_delivery: Delivery<MessageStored>): Promise<void> {}

  // @ts-expect-error -- the schema of another consumer (embedder-summaries reads SummaryCreated)
  @ConsumeEventBatches(Consumers.compactorSummaries)
  async wrongSchema(_deliveries: Delivery<SummaryCreated>[]): Promise<void> {}

  // @ts-expect-error -- the schema of another consumer, one at a time
  @ConsumeEvents(Consumers.compactorSummaries)
  async wrongSingleSchema(_delivery: Delivery<TurnEvent>): Promise<void> {}

  // @ts-expect-error -- one delivery where a batch comes
  @ConsumeEventBatches(Consumers.compactorSummaries)
  async singleForBatch(_delivery: Delivery<MessageStored>): Promise<void> {}

  // @ts-expect-error -- a batch where one delivery comes
  @ConsumeEvents(Consumers.compactorSummaries)
  async batchForSingle(_deliveries: Delivery<MessageStored>[]): Promise<void> {}

  // @ts-expect-error -- not a Promise
  @ConsumeEventBatches(Consumers.compactorSummaries)
  notAsync(_deliveries: Delivery<MessageStored>[]): void {}
}
