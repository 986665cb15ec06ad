import { Module, type DynamicModule } from '@nestjs/common';
import { Outbox } from './outbox';
import { OUTBOX_OPTIONS, type OutboxOptions } from './outbox.options';
import { OutboxRelay } from './outbox.relay';

/**
 * For a service that announces events (it also needs MessagingModule and StoreModule):
 * `Outbox` to write them in its transactions, and the relay that publishes them.
 */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [{ provide: OUTBOX_OPTIONS, useValue: options }, Outbox, OutboxRelay],
      exports: [Outbox, OutboxRelay],
    };
  }
}
