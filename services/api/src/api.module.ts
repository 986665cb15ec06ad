import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import type { ApiConfig } from './api.config';

@Module({})
export class ApiModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        PlatformModule.forRoot({ service: 'api', logLevel: config.LOG_LEVEL }),
        // For the RpcClient (and nats readiness); main.ts starts no transport.
        MessagingModule.forRoot(messagingOptionsFrom('api', config)),
      ],
      controllers: [],
      providers: [],
    };
  }
}
