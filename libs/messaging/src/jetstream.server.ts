import { Inject, Injectable, Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { ALL_STREAMS, Subjects, type ConsumerSpec } from '@engram/contracts';
import { ReadinessRegistry, ShutdownBudget } from '@engram/platform';
import { NatsClient, type NatsHandles } from './connection/nats.client';
import { ConsumerRunner } from './consumers/consumer-runner';
import { errorMessage } from './consumers/error-message';
import { ENGRAM_HANDLER, type HandlerMeta } from './handlers.decorators';
import { consumerRuntime, MESSAGING_OPTIONS, type MessagingOptions } from './messaging.options';
import { DeadLetterPublisher } from './publishing/dead-letter.publisher';
import { RpcEndpoint } from './rpc/rpc.endpoint';
import { TopologyProvisioner } from './topology/topology.provisioner';

/**
 * The NestJS transport over NATS JetStream. At start it provisions the streams,
 * creates each handler's durable pull consumer and runs it, and answers each RPC
 * in a queue group. On shutdown it stops pulling and lets in-flight work finish.
 */
@Injectable()
export class JetStreamServer extends Server implements CustomTransportStrategy {
  private readonly log = new Logger(JetStreamServer.name);
  private readonly runners: ConsumerRunner[] = [];
  private readonly endpoints: RpcEndpoint[] = [];
  private readonly advisories: Subscription[] = [];

  constructor(
    private readonly nats: NatsClient,
    private readonly topology: TopologyProvisioner,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly readiness: ReadinessRegistry,
    private readonly shutdown: ShutdownBudget,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  private async start(): Promise<void> {
    // Ready means answering: not before every RPC is subscribed and every consumer runs.
    let started = false;
    this.readiness.register({
      name: 'handlers',
      check: async () => {
        if (!started) throw new Error('consumers and RPCs are starting');
        return { consumers: this.runners.length, rpcs: this.endpoints.length };
      },
    });
    const handles = await this.nats.connected();
    for (const stream of ALL_STREAMS) {
      await this.topology.ensureStream(handles.jsm, stream, this.options.streamReplicas);
    }
    for (const [pattern, handler] of this.messageHandlers) {
      const meta = handler.extras?.[ENGRAM_HANDLER] as HandlerMeta | undefined;
      if (!meta) throw new Error(`${pattern}: use @ConsumeEvents, @ConsumeEventBatches or @HandleRpc`);
      if (meta.kind === 'rpc') {
        const endpoint = new RpcEndpoint(
          meta.rpc,
          this.options.service,
          (request, ctx) => this.call(handler, request, ctx),
          this.options.rpc,
          this.options.rpcPartitioning,
        );
        endpoint.start(handles.connection);
        this.endpoints.push(endpoint);
      } else {
        await this.startConsumer(handles, meta.consumer, meta.kind === 'batches', handler);
      }
    }
    // Once started, every RPC answers: the server has registered our subscriptions.
    await handles.connection.flush();
    started = true;
  }

  private async startConsumer(
    handles: NatsHandles,
    spec: ConsumerSpec,
    batched: boolean,
    handler: MessageHandler,
  ): Promise<void> {
    await this.topology.ensureConsumer(handles.jsm, spec);
    const runtime = consumerRuntime(spec, this.options);
    const runner = new ConsumerRunner(
      spec,
      batched,
      runtime,
      async (payload) => {
        await this.call(handler, payload);
      },
      {
        js: handles.js,
        deadLetters: this.deadLetters,
        retry: this.options.retry,
        dependenciesReady: () => this.readiness.allReady(),
      },
    );
    await runner.start();
    this.runners.push(runner);
    this.watchMaxDeliveries(handles, spec);
    this.log.log(
      `consuming ${spec.stream.name}/${spec.durable} (${batched ? `batches of ${runtime.batchSize}, ` : ''}concurrency ${runtime.concurrency})`,
    );
  }

  /**
   * A message whose handler crashed the process on every delivery never reaches our
   * own dead-letter path; JetStream announces it instead, and one replica dead-letters it.
   */
  private watchMaxDeliveries(handles: NatsHandles, spec: ConsumerSpec): void {
    const subscription = handles.connection.subscribe(
      Subjects.maxDeliveriesAdvisory(spec.stream.name, spec.durable),
      {
        queue: `engram.advisory.${spec.durable}`,
        callback: (error, msg) => {
          if (error) return;
          void (async () => {
            try {
              const advisory = msg.json<{ stream_seq: number; deliveries: number }>();
              const stored = await handles.jsm.streams.getMessage(spec.stream.name, {
                seq: advisory.stream_seq,
              });
              if (!stored) return;
              await this.deadLetters.publish(
                handles.js,
                {
                  stream: spec.stream.name,
                  consumer: spec.durable,
                  subject: stored.subject,
                  sequence: stored.seq,
                  data: stored.data,
                  headers: stored.header,
                  deliveries: advisory.deliveries,
                },
                'exhausted',
                `no delivery of ${advisory.deliveries} was settled: the worker stopped or timed out every time`,
              );
            } catch (e) {
              this.log.error(`max-deliveries advisory for ${spec.durable} not handled: ${errorMessage(e)}`);
            }
          })();
        },
      },
    );
    this.advisories.push(subscription);
  }

  /** Runs a Nest handler (with its pipes and filters) and waits for its result; rejects with the original error. */
  private async call(handler: MessageHandler, ...args: unknown[]): Promise<unknown> {
    const result = await (handler as (...a: unknown[]) => Promise<unknown>)(...args);
    return lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }

  /**
   * Running handlers may finish until the drain's reserve of the grace is left. Stopping
   * itself waits on NATS (unsubscribing, the pull loops' end), which never answers while
   * it is gone: it is bounded by the same budget.
   */
  async close(): Promise<void> {
    const budget = this.shutdown.begin(this.options.shutdownGraceMs);
    const reserve = budget.drainReserveMs();
    const handlersMs = budget.remainingMs(reserve);
    await budget.within(
      'stopping consumers and RPCs',
      Promise.all([
        ...this.runners.map((r) => r.stop(handlersMs)),
        ...this.endpoints.map((e) => e.stop(handlersMs)),
      ]),
      reserve,
    );
    for (const subscription of this.advisories) subscription.unsubscribe();
    this.runners.length = 0;
    this.endpoints.length = 0;
  }

  on(): never {
    throw new Error('JetStreamServer does not emit events');
  }

  unwrap<T>(): T {
    return this.nats as T;
  }
}

export type { NatsConnection };
