import { Module } from '@nestjs/common';
import { DeadLettersHandler } from './dead-letters.handler';
import { ListDeadLettersUseCase } from './list-dead-letters.use-case';
import { RedriveDeadLetterUseCase } from './redrive-dead-letter.use-case';

/** mem.rpc.deadletters.*: the tenant's dead letters, read and re-driven through DeadLetterBox (libs/messaging). */
@Module({
  controllers: [DeadLettersHandler],
  providers: [ListDeadLettersUseCase, RedriveDeadLetterUseCase],
})
export class DeadLettersModule {}
