import { Module, type DynamicModule } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import {
  MessagingModule,
  messagingOptionsFrom,
  OutboxModule,
  outboxOptionsFrom,
  StreamEraser,
} from '@engram/messaging';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { AgentsHandler } from './agents/agents.handler';
import { AgentsRepository } from './agents/agents.repository';
import { ListAgentsUseCase } from './agents/list-agents.use-case';
import { AccessRecorder } from './access/access-recorder.service';
import { AccessRepository } from './access/access.repository';
import { RetrievalAccessConsumer } from './access/retrieval-access.consumer';
import { RecordAccessUseCase } from './access/record-access.use-case';
import { RecallHandler } from './recall/recall.handler';
import { RecallMemoryUseCase } from './recall/recall-memory.use-case';
import { RecallRepository } from './recall/recall.repository';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from './retrieval.config';
import { AnswerSynthesizerGateway } from './search/answer-synthesizer.gateway';
import { QueryVectorGateway } from './search/query-vector.gateway';
import { SearchHandler } from './search/search.handler';
import { SearchMemoryUseCase } from './search/search-memory.use-case';
import { MemoryIndex } from './search/index/memory-index.service';
import { BrowseHandler } from './transcript/browse.handler';
import { BrowseTranscriptUseCase } from './transcript/browse-transcript.use-case';
import { TranscriptReaderRepository } from './transcript/transcript-reader.repository';
import { FactRepository } from './facts/fact.repository';
import { FACTS_OPTIONS } from './facts/facts.options';
import { ForgetFactUseCase } from './facts/forget-fact.use-case';
import { ForgetHandler } from './facts/forget.handler';
import { SaveFactUseCase } from './facts/save-fact.use-case';
import { SaveHandler } from './facts/save.handler';
import { MemoryStatsUseCase } from './stats/memory-stats.use-case';
import { QueueStatsReader } from './stats/queue-stats.reader';
import { StatsHandler } from './stats/stats.handler';
import { DeadLettersHandler } from './dead-letters/dead-letters.handler';
import { StatsRepository } from './stats/stats.repository';
import { FactRecordsRepository } from './facts/fact-records.repository';
import { FactsHandler } from './facts/facts.handler';
import { GetFactUseCase } from './facts/get-fact.use-case';
import { ListFactsUseCase } from './facts/list-facts.use-case';
import { UpdateFactUseCase } from './facts/update-fact.use-case';
import { ListStateUseCase } from './state/list-state.use-case';
import { StateHandler } from './state/state.handler';
import { StateRepository } from './state/state.repository';
import { CompactionsHandler } from './transcript/compactions.handler';
import { CompactionsRepository } from './transcript/compactions.repository';
import { ListCompactionsUseCase } from './transcript/list-compactions.use-case';
import { ConversationsHandler } from './transcript/conversations.handler';
import { ConversationsRepository } from './transcript/conversations.repository';
import { ListConversationsUseCase } from './transcript/list-conversations.use-case';
import { SummaryTreeHandler } from './transcript/summary-tree.handler';
import { SummaryTreeRepository } from './transcript/summary-tree.repository';
import { SummaryTreeUseCase } from './transcript/summary-tree.use-case';
import { EraseHandler } from './erase/erase.handler';
import { EraseMemoryUseCase } from './erase/erase-memory.use-case';
import { ErasureRepository } from './erase/erasure.repository';

@Module({})
export class RetrievalModule {
  static register(config: RetrievalConfig): DynamicModule {
    return {
      module: RetrievalModule,
      imports: [
        PlatformModule.forRoot({ service: 'retrieval', logLevel: config.LOG_LEVEL }),
        MessagingModule.forRoot(messagingOptionsFrom('retrieval', config)),
        StoreModule.forRoot({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          service: 'retrieval',
        }),
        OutboxModule.forRoot(outboxOptionsFrom(config)),
      ],
      controllers: [
        BrowseHandler,
        SearchHandler,
        RetrievalAccessConsumer,
        SaveHandler,
        ForgetHandler,
        StatsHandler,
        DeadLettersHandler,
        RecallHandler,
        FactsHandler,
        StateHandler,
        ConversationsHandler,
        SummaryTreeHandler,
        CompactionsHandler,
        AgentsHandler,
        EraseHandler,
      ],
      providers: [
        { provide: RETRIEVAL_CONFIG, useValue: config },
        GertyClient,
        QueryVectorGateway,
        AnswerSynthesizerGateway,
        SearchMemoryUseCase,
        MemoryIndex,
        AccessRecorder,
        AccessRepository,
        RecordAccessUseCase,
        BrowseTranscriptUseCase,
        TranscriptReaderRepository,
        { provide: FACTS_OPTIONS, useValue: { overlapThreshold: config.FACT_OVERLAP_THRESHOLD } },
        FactRepository,
        SaveFactUseCase,
        ForgetFactUseCase,
        StatsRepository,
        QueueStatsReader,
        MemoryStatsUseCase,
        RecallRepository,
        RecallMemoryUseCase,
        FactRecordsRepository,
        ListFactsUseCase,
        GetFactUseCase,
        UpdateFactUseCase,
        StateRepository,
        ListStateUseCase,
        ConversationsRepository,
        ListConversationsUseCase,
        SummaryTreeRepository,
        SummaryTreeUseCase,
        CompactionsRepository,
        ListCompactionsUseCase,
        AgentsRepository,
        ListAgentsUseCase,
        StreamEraser,
        ErasureRepository,
        EraseMemoryUseCase,
      ],
    };
  }
}
