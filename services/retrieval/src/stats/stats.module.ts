import { Module } from '@nestjs/common';
import { GetStatsUseCase } from './get-stats.use-case';
import { QueueStatsReader } from './queue-stats.reader';
import { StatsHandler } from './stats.handler';
import { StatsRepository } from './stats.repository';

/** mem.rpc.stats.get: counts of the tenant's memory, and the worker queues. */
@Module({
  controllers: [StatsHandler],
  providers: [StatsRepository, QueueStatsReader, GetStatsUseCase],
})
export class StatsModule {}
