import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import type { CompactorConfig } from './compactor.config';

@Module({})
export class CompactorModule {
  static register(config: CompactorConfig): DynamicModule {
    return {
      module: CompactorModule,
      imports: [
        PlatformModule.forRoot({ service: 'compactor', logLevel: config.LOG_LEVEL }),
        // Per-consumer defaults (concurrency, batch size) go here with the first handler.
        MessagingModule.forRoot(messagingOptionsFrom('compactor', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'compactor',
        }),
      ],
      controllers: [],
      providers: [],
    };
  }
}
