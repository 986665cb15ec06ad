import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingOptionsFrom } from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { CONTEXT_BUILDER_CONFIG, type ContextBuilderConfig } from './context-builder.config';
import { BuildContextUseCase } from './context/build-context.use-case';
import { ContextBuildHandler } from './context/context-build.handler';
import { ContextSourcesRepository } from './context/context-sources.repository';
import { BeingRecallGateway } from './context/being-recall.gateway';
import { MemorySearchGateway } from './context/memory-search.gateway';
import { AgentProfileHandler } from './agents/agent-profile.handler';
import { AgentProfileRepository } from './agents/agent-profile.repository';
import { SkillsHandler } from './skills/skills.handler';
import { SkillsRepository } from './skills/skills.repository';
import { WorkspaceHandler } from './workspace/workspace.handler';
import { WorkspaceRepository } from './workspace/workspace.repository';

@Module({})
export class ContextBuilderModule {
  static register(config: ContextBuilderConfig): DynamicModule {
    return {
      module: ContextBuilderModule,
      imports: [
        PlatformModule.forRoot({ service: 'context-builder', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('context-builder', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'context-builder',
        }),
      ],
      controllers: [ContextBuildHandler, AgentProfileHandler, WorkspaceHandler, SkillsHandler],
      providers: [
        { provide: CONTEXT_BUILDER_CONFIG, useValue: config },
        BuildContextUseCase,
        ContextSourcesRepository,
        MemorySearchGateway,
        BeingRecallGateway,
        AgentProfileRepository,
        WorkspaceRepository,
        SkillsRepository,
      ],
    };
  }
}
