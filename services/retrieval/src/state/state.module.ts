import { Module } from '@nestjs/common';
import { ListStateUseCase } from './list-state.use-case';
import { StateHandler } from './state.handler';
import { StateRepository } from './state.repository';

/** mem.rpc.state.list: an agent's [STATE:] values. */
@Module({
  controllers: [StateHandler],
  providers: [StateRepository, ListStateUseCase],
})
export class StateModule {}
