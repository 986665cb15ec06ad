import { Module, type DynamicModule } from '@nestjs/common';
import { serviceImports } from '@engram/messaging';
import { INGEST_CONFIG, type IngestConfig } from './ingest.config';
import { TenantSettingsHandler } from './tenants/tenant-settings.handler';
import { TenantSettingsRepository } from './tenants/tenant-settings.repository';
import { UpdateTenantSettingsUseCase } from './tenants/update-tenant-settings.use-case';
import { IngestTurnsUseCase } from './turns/ingest-turns.use-case';
import { TaggedMemoryRepository } from './turns/tagged-memory.repository';
import { TranscriptRepository } from './turns/transcript.repository';
import { IngestTurnsConsumer } from './turns/ingest-turns.consumer';

@Module({})
export class IngestModule {
  static register(config: IngestConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: serviceImports('ingest', config, { outbox: true }),
      controllers: [IngestTurnsConsumer, TenantSettingsHandler],
      providers: [
        { provide: INGEST_CONFIG, useValue: config },
        IngestTurnsUseCase,
        TranscriptRepository,
        TaggedMemoryRepository,
        TenantSettingsRepository,
        UpdateTenantSettingsUseCase,
      ],
    };
  }
}
