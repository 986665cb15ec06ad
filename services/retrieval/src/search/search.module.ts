import { Module } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { AccessModule } from '../access/access.module';
import { AnswerSynthesizerGateway } from './answer-synthesizer.gateway';
import { MemoryIndex } from './index/memory-index.service';
import { QueryVectorGateway } from './query-vector.gateway';
import { SearchMemoryUseCase } from './search-memory.use-case';
import { SearchHandler } from './search.handler';

/**
 * mem.rpc.search: hybrid search over the tenant's memory, answered from its in-memory index
 * once loaded; gerty embeds the query and writes a synthesis, and what a search returns is
 * recorded as access (AccessModule).
 */
@Module({
  imports: [AccessModule],
  controllers: [SearchHandler],
  providers: [GertyClient, QueryVectorGateway, AnswerSynthesizerGateway, MemoryIndex, SearchMemoryUseCase],
})
export class SearchModule {}
