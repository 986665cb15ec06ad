import { Module } from '@nestjs/common';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';
import { FactRecordsRepository } from './fact-records.repository';
import { FactRepository } from './fact.repository';
import { FACTS_OPTIONS, type FactsOptions } from './facts.options';
import { FactsHandler } from './facts.handler';
import { ForgetFactUseCase } from './forget-fact.use-case';
import { ForgetHandler } from './forget.handler';
import { GetFactUseCase } from './get-fact.use-case';
import { ListFactsUseCase } from './list-facts.use-case';
import { SaveFactUseCase } from './save-fact.use-case';
import { SaveHandler } from './save.handler';
import { UpdateFactUseCase } from './update-fact.use-case';

/** Facts saved, forgotten, listed, read with their history and updated (mem.rpc.save, forget, facts.*). */
@Module({
  controllers: [SaveHandler, ForgetHandler, FactsHandler],
  providers: [
    {
      provide: FACTS_OPTIONS,
      useFactory: (config: RetrievalConfig): FactsOptions => ({
        overlapThreshold: config.FACT_OVERLAP_THRESHOLD,
      }),
      inject: [RETRIEVAL_CONFIG],
    },
    FactRepository,
    FactRecordsRepository,
    SaveFactUseCase,
    ForgetFactUseCase,
    ListFactsUseCase,
    GetFactUseCase,
    UpdateFactUseCase,
  ],
})
export class FactsModule {}
