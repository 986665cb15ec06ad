import { Module, type DynamicModule } from '@nestjs/common';
import { serviceImports } from '@engram/messaging';
import { CONTEXT_BUILDER_CONFIG, type ContextBuilderConfig } from './context-builder.config';
import { BuildContextUseCase } from './context/build-context.use-case';
import { ContextBuildHandler } from './context/context-build.handler';
import { ContextSourcesRepository } from './context/context-sources.repository';
import { BeingRecallGateway } from './context/being-recall.gateway';
import { MemorySearchGateway } from './context/memory-search.gateway';
import { AgentProfileHandler } from './agents/agent-profile.handler';
import { AgentProfileRepository } from './agents/agent-profile.repository';
import { PutAgentProfileUseCase } from './agents/put-agent-profile.use-case';
import { SkillsHandler } from './skills/skills.handler';
import { SkillsRepository } from './skills/skills.repository';
import { PutSkillsUseCase } from './skills/put-skills.use-case';
import { WorkspaceHandler } from './workspace/workspace.handler';
import { WorkspaceRepository } from './workspace/workspace.repository';
import { PutWorkspaceUseCase } from './workspace/put-workspace.use-case';

@Module({})
export class ContextBuilderModule {
  static register(config: ContextBuilderConfig): DynamicModule {
    return {
      module: ContextBuilderModule,
      imports: serviceImports('context-builder', config),
      controllers: [ContextBuildHandler, AgentProfileHandler, WorkspaceHandler, SkillsHandler],
      providers: [
        { provide: CONTEXT_BUILDER_CONFIG, useValue: config },
        BuildContextUseCase,
        ContextSourcesRepository,
        MemorySearchGateway,
        BeingRecallGateway,
        AgentProfileRepository,
        PutAgentProfileUseCase,
        WorkspaceRepository,
        PutWorkspaceUseCase,
        SkillsRepository,
        PutSkillsUseCase,
      ],
    };
  }
}
