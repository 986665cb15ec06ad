import { Injectable, Logger } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  ReplayPolicy,
  RetentionPolicy,
  StorageType,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { DELIVERY_CEILING_FACTOR, type ConsumerSpec, type StreamSpec } from '@engram/contracts';

/** Streams and durable consumers are declared in @engram/contracts and created (or updated) from code at start. */
@Injectable()
export class TopologyProvisioner {
  private readonly logger = new Logger(TopologyProvisioner.name);

  async ensureStream(jsm: JetStreamManager, spec: StreamSpec, replicas: number): Promise<void> {
    const wanted: Partial<StreamConfig> & { name: string } = {
      name: spec.name,
      description: spec.description,
      subjects: [...spec.subjects],
      retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
      max_msgs_per_subject: spec.maxMsgsPerSubject ?? -1,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(spec.maxAgeMs),
      duplicate_window: nanos(spec.duplicateWindowMs),
      num_replicas: replicas,
    };
    try {
      const { config } = await jsm.streams.info(spec.name);
      const drifted =
        config.description !== wanted.description ||
        config.max_age !== wanted.max_age ||
        config.duplicate_window !== wanted.duplicate_window ||
        config.num_replicas !== wanted.num_replicas ||
        config.max_msgs_per_subject !== wanted.max_msgs_per_subject ||
        config.subjects.join() !== wanted.subjects!.join();
      if (drifted) {
        await jsm.streams.update(spec.name, wanted);
        this.logger.log(`stream ${spec.name} updated`);
      }
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound))
        throw error;
      try {
        await jsm.streams.add(wanted);
        this.logger.log(`stream ${spec.name} created`);
      } catch (addError) {
        // Another replica created it between our info and add.
        await jsm.streams.info(spec.name).catch(() => Promise.reject(addError));
      }
    }
  }

  async ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<void> {
    const wanted: Partial<ConsumerConfig> = {
      durable_name: spec.durable,
      description: spec.description,
      filter_subject: spec.filterSubject,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(spec.ackWaitMs),
      max_deliver: spec.maxDeliver * DELIVERY_CEILING_FACTOR,
      max_ack_pending: spec.maxAckPending,
      deliver_policy: DeliverPolicy.All,
      replay_policy: ReplayPolicy.Instant,
    };
    const existing = await jsm.consumers.info(spec.stream.name, spec.durable).catch(() => null);
    if (!existing) {
      await jsm.consumers.add(spec.stream.name, wanted);
      this.logger.log(`consumer ${spec.stream.name}/${spec.durable} created`);
      return;
    }
    const c = existing.config;
    if (
      c.ack_wait !== wanted.ack_wait ||
      c.max_deliver !== wanted.max_deliver ||
      c.max_ack_pending !== wanted.max_ack_pending ||
      c.description !== wanted.description ||
      c.filter_subject !== wanted.filter_subject
    ) {
      await jsm.consumers.update(spec.stream.name, spec.durable, {
        description: wanted.description,
        ack_wait: wanted.ack_wait,
        max_deliver: wanted.max_deliver,
        max_ack_pending: wanted.max_ack_pending,
        filter_subject: wanted.filter_subject,
      });
      this.logger.log(`consumer ${spec.stream.name}/${spec.durable} updated`);
    }
  }
}
