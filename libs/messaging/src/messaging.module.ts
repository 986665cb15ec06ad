import { Module, type DynamicModule } from '@nestjs/common';
import { NatsClient } from './connection/nats.client';
import { JetStreamServer } from './jetstream.server';
import { MESSAGING_OPTIONS, type MessagingOptions } from './messaging.options';
import { DeadLetterPublisher } from './publishing/dead-letter.publisher';
import { DeadLetterBox } from './publishing/dead-letter.box';
import { HeartbeatPublisher } from './health/heartbeat.publisher';
import { RpcClient } from './rpc/rpc.client';
import { TopologyProvisioner } from './topology/topology.provisioner';

/** NATS for a service: the JetStream transport, publishers and the RPC client. */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        NatsClient,
        TopologyProvisioner,
        DeadLetterPublisher,
        DeadLetterBox,
        HeartbeatPublisher,
        RpcClient,
        JetStreamServer,
      ],
      exports: [
        NatsClient,
        DeadLetterPublisher,
        DeadLetterBox,
        RpcClient,
        JetStreamServer,
        MESSAGING_OPTIONS,
      ],
    };
  }
}
