import { Module, type DynamicModule } from '@nestjs/common';
import { serviceImports } from '@engram/messaging';
import { AccessModule } from './access/access.module';
import { AgentsModule } from './agents/agents.module';
import { DeadLettersModule } from './dead-letters/dead-letters.module';
import { EraseModule } from './erase/erase.module';
import { ExpandModule } from './expand/expand.module';
import { FactsModule } from './facts/facts.module';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from './retrieval.config';
import { SearchModule } from './search/search.module';
import { StateModule } from './state/state.module';
import { StatsModule } from './stats/stats.module';
import { TranscriptModule } from './transcript/transcript.module';

/**
 * Retrieval: the shared wiring (platform, messaging, store, outbox and RETRIEVAL_CONFIG), and one
 * module per feature folder, each declaring its own handlers, consumers and providers. The
 * module is global so that every feature can inject RETRIEVAL_CONFIG; Platform, Messaging,
 * Store and Outbox modules are global themselves.
 */
@Module({})
export class RetrievalModule {
  static register(config: RetrievalConfig): DynamicModule {
    return {
      module: RetrievalModule,
      global: true,
      imports: [
        ...serviceImports('retrieval', config, { outbox: true }),
        SearchModule,
        AccessModule,
        TranscriptModule,
        FactsModule,
        StateModule,
        AgentsModule,
        ExpandModule,
        StatsModule,
        DeadLettersModule,
        EraseModule,
      ],
      providers: [{ provide: RETRIEVAL_CONFIG, useValue: config }],
      exports: [RETRIEVAL_CONFIG],
    };
  }
}
