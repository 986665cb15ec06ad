import { Module, type DynamicModule } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { BeingNodesHandler } from './being/being-nodes.handler';
import { BeingNodesRepository } from './being/being-nodes.repository';
import { BeingNotesHandler } from './being/being-notes.handler';
import { BeingNotesRepository } from './being/being-notes.repository';
import { BeingProfileHandler } from './being/being-profile.handler';
import { BeingProfileRepository } from './being/being-profile.repository';
import { PATROL_CONFIG, type PatrolConfig } from './patrol.config';
import { BeingRecallHandler } from './recall/being-recall.handler';
import { BeingRecallRepository } from './recall/being-recall.repository';
import { BeingRecallUseCase } from './recall/being-recall.use-case';
import { RecallEmbeddingGateway } from './recall/recall-embedding.gateway';

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
      controllers: [BeingNotesHandler, BeingProfileHandler, BeingNodesHandler, BeingRecallHandler],
      providers: [
        { provide: PATROL_CONFIG, useValue: config },
        GertyClient,
        RecallEmbeddingGateway,
        BeingNotesRepository,
        BeingProfileRepository,
        BeingNodesRepository,
        BeingRecallRepository,
        BeingRecallUseCase,
      ],
    };
  }
}
