import { Module } from '@nestjs/common';
import { AccessRecorder } from './access-recorder.service';
import { AccessRepository } from './access.repository';
import { RecordAccessUseCase } from './record-access.use-case';
import { RetrievalAccessConsumer } from './retrieval-access.consumer';

/** What searches returned, recorded: AccessRecorder announces it, the consumer counts it on the rows. */
@Module({
  controllers: [RetrievalAccessConsumer],
  providers: [AccessRecorder, AccessRepository, RecordAccessUseCase],
  exports: [AccessRecorder],
})
export class AccessModule {}
