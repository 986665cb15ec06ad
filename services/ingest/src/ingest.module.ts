import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom, OutboxModule, outboxOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { INGEST_CONFIG, type IngestConfig } from './ingest.config';
import { TenantSettingsHandler } from './tenants/tenant-settings.handler';
import { TenantSettingsRepository } from './tenants/tenant-settings.repository';
import { IngestTurnsUseCase } from './turns/ingest-turns.use-case';
import { TaggedMemoryRepository } from './turns/tagged-memory.repository';
import { TranscriptRepository } from './turns/transcript.repository';
import { IngestTurnsConsumer } from './turns/ingest-turns.consumer';

@Module({})
export class IngestModule {
  static register(config: IngestConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [
        PlatformModule.forRoot({ service: 'ingest', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('ingest', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'ingest',
        }),
        OutboxModule.forRoot(outboxOptionsFrom(config)),
      ],
      controllers: [IngestTurnsConsumer, TenantSettingsHandler],
      providers: [
        { provide: INGEST_CONFIG, useValue: config },
        IngestTurnsUseCase,
        TranscriptRepository,
        TaggedMemoryRepository,
        TenantSettingsRepository,
      ],
    };
  }
}
