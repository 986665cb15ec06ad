import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import type { RetrievalConfig } from './retrieval.config';
import { BrowseHandler } from './transcript/browse.handler';
import { BrowseTranscriptUseCase } from './transcript/browse-transcript.use-case';
import { TranscriptReaderRepository } from './transcript/transcript-reader.repository';

@Module({})
export class RetrievalModule {
  static register(config: RetrievalConfig): DynamicModule {
    return {
      module: RetrievalModule,
      imports: [
        PlatformModule.forRoot({ service: 'retrieval', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('retrieval', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'retrieval',
        }),
      ],
      controllers: [BrowseHandler],
      providers: [BrowseTranscriptUseCase, TranscriptReaderRepository],
    };
  }
}
