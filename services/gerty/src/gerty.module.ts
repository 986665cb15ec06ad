import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import type { GertyConfig } from './gerty.config';

@Module({})
export class GertyModule {
  static register(config: GertyConfig): DynamicModule {
    return {
      module: GertyModule,
      imports: [
        PlatformModule.forRoot({ service: 'gerty', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('gerty', config)),
      ],
      controllers: [],
      providers: [],
    };
  }
}
