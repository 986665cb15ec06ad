import { Module, type DynamicModule } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { serviceImports } from '@engram/messaging';
import { BeingNodesHandler } from './being/being-nodes.handler';
import { BeingNodesRepository } from './being/being-nodes.repository';
import { BeingNotesHandler } from './being/being-notes.handler';
import { BeingNotesRepository } from './being/being-notes.repository';
import { BeingProfileHandler } from './being/being-profile.handler';
import { BeingProfileRepository } from './being/being-profile.repository';
import { BeingViewHandler } from './being/being-view.handler';
import { BeingViewRepository } from './being/being-view.repository';
import { PinNodeUseCase } from './being/pin-node.use-case';
import { AddNoteUseCase } from './being/add-note.use-case';
import { AddSceneUseCase } from './being/add-scene.use-case';
import { PutPartnerRuleUseCase } from './being/put-partner-rule.use-case';
import { PutPreferenceUseCase } from './being/put-preference.use-case';
import { PutRelationshipUseCase } from './being/put-relationship.use-case';
import { PutSoulUseCase } from './being/put-soul.use-case';
import { ReadNotesUseCase } from './being/read-notes.use-case';
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
import { RecallScenesUseCase } from './recall/recall-scenes.use-case';

@Module({})
export class PatrolModule {
  static register(config: PatrolConfig): DynamicModule {
    return {
      module: PatrolModule,
      imports: serviceImports('patrol', config, { outbox: true }),
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
        RecallScenesUseCase,
        BeingNotesRepository,
        AddSceneUseCase,
        AddNoteUseCase,
        ReadNotesUseCase,
        BeingProfileRepository,
        PutPartnerRuleUseCase,
        PutRelationshipUseCase,
        PutPreferenceUseCase,
        PutSoulUseCase,
        BeingNodesRepository,
        PinNodeUseCase,
        BeingViewRepository,
      ],
    };
  }
}
