import { Module, type DynamicModule } from '@nestjs/common';
import { Consumers } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { MessagingModule, messagingOptionsFrom, OutboxModule, outboxOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { EMBEDDER_CONFIG, type EmbedderConfig } from './embedder.config';
import { EmbedderGertyGateway } from './gateway/embedder-gerty.gateway';
import { DescribeToolCallsUseCase } from './tool-calls/describe-tool-calls.use-case';
import { ToolCallRepository } from './tool-calls/tool-call.repository';
import { EmbedderToolsynthConsumer } from './tool-calls/embedder-toolsynth.consumer';
import { ToolSynthesisQueue } from './tool-calls/tool-synthesis.queue';
import { EmbedItemsUseCase } from './vectors/embed-items.use-case';
import { EmbedderFactsConsumer } from './vectors/embedder-facts.consumer';
import { EmbedderMessagesConsumer } from './vectors/embedder-messages.consumer';
import { EmbedderSummariesConsumer } from './vectors/embedder-summaries.consumer';
import { VectorRepository } from './vectors/vector.repository';
import { VectorSweepService } from './vectors/vector-sweep.service';

@Module({})
export class EmbedderModule {
  static register(config: EmbedderConfig): DynamicModule {
    // EMBEDDER_* override the topology's runtime of the three vector consumers.
    const vectors = {
      ...(config.EMBEDDER_BATCH_SIZE !== undefined && { batchSize: config.EMBEDDER_BATCH_SIZE }),
      ...(config.EMBEDDER_LINGER_MS !== undefined && { lingerMs: config.EMBEDDER_LINGER_MS }),
      ...(config.EMBEDDER_CONCURRENCY !== undefined && { concurrency: config.EMBEDDER_CONCURRENCY }),
    };
    return {
      module: EmbedderModule,
      imports: [
        PlatformModule.forRoot({ service: 'embedder', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(
          messagingOptionsFrom('embedder', config, {
            [Consumers.embedderMessages.durable]: vectors,
            [Consumers.embedderSummaries.durable]: vectors,
            [Consumers.embedderFacts.durable]: vectors,
          }),
        ),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'embedder',
        }),
        OutboxModule.forRoot(outboxOptionsFrom(config)),
      ],
      controllers: [
        EmbedderMessagesConsumer,
        EmbedderSummariesConsumer,
        EmbedderFactsConsumer,
        EmbedderToolsynthConsumer,
      ],
      providers: [
        { provide: EMBEDDER_CONFIG, useValue: config },
        GertyClient,
        EmbedderGertyGateway,
        VectorRepository,
        EmbedItemsUseCase,
        VectorSweepService,
        ToolCallRepository,
        ToolSynthesisQueue,
        DescribeToolCallsUseCase,
      ],
    };
  }
}
