import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { BeingNodesHandler } from './being/being-nodes.handler';
import { BeingNodesRepository } from './being/being-nodes.repository';
import { BeingNotesHandler } from './being/being-notes.handler';
import { BeingNotesRepository } from './being/being-notes.repository';
import { BeingProfileHandler } from './being/being-profile.handler';
import { BeingProfileRepository } from './being/being-profile.repository';
import type { PatrolConfig } from './patrol.config';

@Module({})
export class PatrolModule {
  static register(config: PatrolConfig): DynamicModule {
    return {
      module: PatrolModule,
      imports: [
        PlatformModule.forRoot({ service: 'patrol', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('patrol', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'patrol',
        }),
      ],
      controllers: [BeingNotesHandler, BeingProfileHandler, BeingNodesHandler],
      providers: [BeingNotesRepository, BeingProfileRepository, BeingNodesRepository],
    };
  }
}
