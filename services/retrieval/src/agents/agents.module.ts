import { Module } from '@nestjs/common';
import { AgentsHandler } from './agents.handler';
import { AgentsRepository } from './agents.repository';
import { ListAgentsUseCase } from './list-agents.use-case';

/** mem.rpc.agents.list: the tenant's agents. */
@Module({
  controllers: [AgentsHandler],
  providers: [AgentsRepository, ListAgentsUseCase],
})
export class AgentsModule {}
