import { Module, type DynamicModule } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { MessagingModule, messagingOptionsFrom, OutboxModule, outboxOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { BeingNodesHandler } from './being/being-nodes.handler';
import { BeingNodesRepository } from './being/being-nodes.repository';
import { BeingNotesHandler } from './being/being-notes.handler';
import { BeingNotesRepository } from './being/being-notes.repository';
import { BeingProfileHandler } from './being/being-profile.handler';
import { BeingProfileRepository } from './being/being-profile.repository';
import { BeingViewHandler } from './being/being-view.handler';
import { BeingViewRepository } from './being/being-view.repository';
import { PATROL_CONFIG, type PatrolConfig } from './patrol.config';
import { BeingVoiceRepository } from './patrol/being-voice.repository';
import { PatrolGertyGateway } from './patrol/patrol-gerty.gateway';
import { PatrolRunHandler } from './patrol/patrol-run.handler';
import { PatrolRunsRepository } from './patrol/patrol-runs.repository';
import { PatrolScheduleService } from './patrol/patrol-schedule.service';
import { RunPatrolUseCase } from './patrol/run-patrol.use-case';
import { SceneNodesRepository } from './patrol/scene-nodes.repository';
import { SceneRepairsRepository } from './patrol/scene-repairs.repository';
import { ConsolidationStep } from './patrol/steps/consolidation.step';
import { DecayStep } from './patrol/steps/decay.step';
import { DiaryStep } from './patrol/steps/diary.step';
import { MergeStep } from './patrol/steps/merge.step';
import { RevivalStep } from './patrol/steps/revival.step';
import { RepairStep } from './patrol/steps/repair.step';
import { ScenesToNodesStep } from './patrol/steps/scenes-to-nodes.step';
import { SessionsStep } from './patrol/steps/sessions.step';
import { SplitStep } from './patrol/steps/split.step';
import { ThinkStep } from './patrol/steps/think.step';
import { BeingRecallHandler } from './recall/being-recall.handler';
import { BeingRecallRepository } from './recall/being-recall.repository';

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
        OutboxModule.forRoot(outboxOptionsFrom(config)),
      ],
      controllers: [
        BeingNotesHandler,
        BeingProfileHandler,
        BeingNodesHandler,
        BeingRecallHandler,
        BeingViewHandler,
        PatrolRunHandler,
      ],
      providers: [
        { provide: PATROL_CONFIG, useValue: config },
        GertyClient,
        PatrolGertyGateway,
        PatrolRunsRepository,
        SceneNodesRepository,
        BeingVoiceRepository,
        SceneRepairsRepository,
        RepairStep,
        ScenesToNodesStep,
        SessionsStep,
        DecayStep,
        ConsolidationStep,
        RevivalStep,
        SplitStep,
        MergeStep,
        DiaryStep,
        ThinkStep,
        RunPatrolUseCase,
        PatrolScheduleService,
        BeingRecallRepository,
        BeingNotesRepository,
        BeingProfileRepository,
        BeingNodesRepository,
        BeingViewRepository,
      ],
    };
  }
}
