import { Module, type DynamicModule } from '@nestjs/common';
import { Consumers } from '@engram/contracts';
import { MessagingModule, messagingOptionsFrom, OutboxModule, outboxOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { EMBEDDER_CONFIG, type EmbedderConfig } from './embedder.config';
import { GertyGateway } from './gateway/gerty.gateway';
import { DescribeToolCallsUseCase } from './tool-calls/describe-tool-calls.use-case';
import { ToolCallRepository } from './tool-calls/tool-call.repository';
import { ToolSynthesisHandler } from './tool-calls/tool-synthesis.handler';
import { ToolSynthesisQueue } from './tool-calls/tool-synthesis.queue';
import { EmbedItemsUseCase } from './vectors/embed-items.use-case';
import { StoredMessagesHandler } from './vectors/stored-messages.handler';
import { SummariesAndFactsHandler } from './vectors/summaries-and-facts.handler';
import { VectorRepository } from './vectors/vector.repository';
import { VectorSweepService } from './vectors/vector-sweep.service';

@Module({})
export class EmbedderModule {
  static register(config: EmbedderConfig): DynamicModule {
    const batches = {
      batchSize: config.EMBEDDER_BATCH_SIZE,
      lingerMs: config.EMBEDDER_LINGER_MS,
      concurrency: config.EMBEDDER_CONCURRENCY,
    };
    return {
      module: EmbedderModule,
      imports: [
        PlatformModule.forRoot({ service: 'embedder', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(
          messagingOptionsFrom('embedder', config, {
            [Consumers.embedMessages.durable]: batches,
            [Consumers.embedSummaries.durable]: batches,
            [Consumers.embedFacts.durable]: batches,
            [Consumers.toolSynthesis.durable]: {
              ...batches,
              batchSize: Math.min(64, config.EMBEDDER_BATCH_SIZE),
            },
          }),
        ),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'embedder',
        }),
        OutboxModule.forRoot(outboxOptionsFrom(config)),
      ],
      controllers: [StoredMessagesHandler, SummariesAndFactsHandler, ToolSynthesisHandler],
      providers: [
        { provide: EMBEDDER_CONFIG, useValue: config },
        GertyGateway,
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
