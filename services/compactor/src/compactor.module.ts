import { Module, type DynamicModule } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { serviceImports } from '@engram/messaging';
import { COMPACTOR_CONFIG, type CompactorConfig } from './compactor.config';
import { CompactorFactsConsumer } from './facts/compactor-facts.consumer';
import { ExtractFactsUseCase } from './facts/extract-facts.use-case';
import { ExtractedFactRepository } from './facts/extracted-fact.repository';
import { CompactorGertyGateway } from './gateway/compactor-gerty.gateway';
import { CompactSessionUseCase } from './sessions/compact-session.use-case';
import { CompactorSessionsConsumer } from './sessions/compactor-sessions.consumer';
import { SESSION_COMPACTION_POLICY, sessionCompactionPolicyFrom } from './sessions/session-compaction.policy';
import { SessionCompactionRepository } from './sessions/session-compaction.repository';
import { SUMMARY_TREE_POLICY, summaryTreePolicyFrom } from './summaries/summary-tree.policy';
import { GrowSummaryTreeUseCase } from './summaries/grow-summary-tree.use-case';
import { CompactorSummariesConsumer } from './summaries/compactor-summaries.consumer';
import { SummaryRepository } from './summaries/summary.repository';

@Module({})
export class CompactorModule {
  static register(config: CompactorConfig): DynamicModule {
    return {
      module: CompactorModule,
      imports: serviceImports('compactor', config, { outbox: true }),
      controllers: [CompactorSummariesConsumer, CompactorFactsConsumer, CompactorSessionsConsumer],
      providers: [
        { provide: COMPACTOR_CONFIG, useValue: config },
        { provide: SUMMARY_TREE_POLICY, useValue: summaryTreePolicyFrom(config) },
        GertyClient,
        CompactorGertyGateway,
        SummaryRepository,
        GrowSummaryTreeUseCase,
        ExtractedFactRepository,
        ExtractFactsUseCase,
        { provide: SESSION_COMPACTION_POLICY, useValue: sessionCompactionPolicyFrom(config) },
        SessionCompactionRepository,
        CompactSessionUseCase,
      ],
    };
  }
}
