import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import type { EmbedderConfig } from './embedder.config';

@Module({})
export class EmbedderModule {
  static register(config: EmbedderConfig): DynamicModule {
    return {
      module: EmbedderModule,
      imports: [
        PlatformModule.forRoot({ service: 'embedder', logLevel: config.LOG_LEVEL }),
        // Per-consumer defaults (concurrency, batch size) go here with the first handler.
        MessagingModule.forRoot(messagingOptionsFrom('embedder', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'embedder',
        }),
      ],
      controllers: [],
      providers: [],
    };
  }
}
