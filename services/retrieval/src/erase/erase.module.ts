import { Module } from '@nestjs/common';
import { StreamEraser } from '@engram/messaging';
import { EraseMemoryUseCase } from './erase-memory.use-case';
import { EraseHandler } from './erase.handler';
import { ErasureRepository } from './erasure.repository';

/** mem.rpc.erase: a conversation's, an agent's or a tenant's words removed, from Postgres and the streams. */
@Module({
  controllers: [EraseHandler],
  providers: [StreamEraser, ErasureRepository, EraseMemoryUseCase],
})
export class EraseModule {}
