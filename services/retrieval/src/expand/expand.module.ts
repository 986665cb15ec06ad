import { Module } from '@nestjs/common';
import { ExpandMemoryUseCase } from './expand-memory.use-case';
import { ExpandHandler } from './expand.handler';
import { ExpandRepository } from './expand.repository';

/** mem.rpc.expand: items by id, drilled down to their sources. */
@Module({
  controllers: [ExpandHandler],
  providers: [ExpandRepository, ExpandMemoryUseCase],
})
export class ExpandModule {}
