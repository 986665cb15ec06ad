import { Module, type DynamicModule } from '@nestjs/common';
import { Consumers } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { serviceImports } from '@engram/messaging';
import { EMBEDDER_CONFIG, type EmbedderConfig } from './embedder.config';
import { EmbedderGertyGateway } from './gateway/embedder-gerty.gateway';
import { DescribeToolCallsUseCase } from './tool-synthesis/describe-tool-calls.use-case';
import { ToolCallRepository } from './tool-synthesis/tool-call.repository';
import { EmbedderToolsynthConsumer } from './tool-synthesis/embedder-toolsynth.consumer';
import { ToolSynthesisQueue } from './tool-synthesis/tool-synthesis.queue';
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
      imports: serviceImports('embedder', config, {
        outbox: true,
        consumers: {
          [Consumers.embedderMessages.durable]: vectors,
          [Consumers.embedderSummaries.durable]: vectors,
          [Consumers.embedderFacts.durable]: vectors,
        },
      }),
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
