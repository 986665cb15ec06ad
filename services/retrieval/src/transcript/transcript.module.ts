import { Module } from '@nestjs/common';
import { BrowseTranscriptUseCase } from './browse-transcript.use-case';
import { BrowseHandler } from './browse.handler';
import { CompactionsHandler } from './compactions.handler';
import { CompactionsRepository } from './compactions.repository';
import { ConversationsHandler } from './conversations.handler';
import { ConversationsRepository } from './conversations.repository';
import { ListCompactionsUseCase } from './list-compactions.use-case';
import { ListConversationsUseCase } from './list-conversations.use-case';
import { ListSummariesUseCase } from './list-summaries.use-case';
import { SummaryTreeHandler } from './summary-tree.handler';
import { SummaryTreeRepository } from './summary-tree.repository';
import { TranscriptReaderRepository } from './transcript-reader.repository';

/** The transcript and what the compactor made of it: browse, conversations, summary trees, compactions. */
@Module({
  controllers: [BrowseHandler, ConversationsHandler, SummaryTreeHandler, CompactionsHandler],
  providers: [
    TranscriptReaderRepository,
    BrowseTranscriptUseCase,
    ConversationsRepository,
    ListConversationsUseCase,
    SummaryTreeRepository,
    ListSummariesUseCase,
    CompactionsRepository,
    ListCompactionsUseCase,
  ],
})
export class TranscriptModule {}
