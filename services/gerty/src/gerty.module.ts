import { Module, type DynamicModule } from '@nestjs/common';
import { DEFAULT_RETRY_SCHEDULE } from '@engram/inference';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { CompleteUseCase } from './completion/complete.use-case';
import { EmbedTextsUseCase } from './embedding/embed-texts.use-case';
import { GERTY_CONFIG, type GertyConfig } from './gerty.config';
import { GertyHandlers } from './gerty.handlers';
import { TenantKeysRepository } from './keys/tenant-keys.repository';
import { TenantKeysService } from './keys/tenant-keys.service';
import { ModelRouter, OPENAI_RETRY_SCHEDULE } from './models/model-router';

@Module({})
export class GertyModule {
  static register(config: GertyConfig): DynamicModule {
    return {
      module: GertyModule,
      imports: [
        PlatformModule.forRoot({ service: 'gerty', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('gerty', config)),
        // Tenants' own provider keys live in the store.
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'gerty',
        }),
      ],
      controllers: [GertyHandlers],
      providers: [
        { provide: GERTY_CONFIG, useValue: config },
        { provide: OPENAI_RETRY_SCHEDULE, useValue: DEFAULT_RETRY_SCHEDULE },
        ModelRouter,
        EmbedTextsUseCase,
        CompleteUseCase,
        TenantKeysRepository,
        TenantKeysService,
      ],
    };
  }
}
