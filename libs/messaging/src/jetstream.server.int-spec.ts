import { Controller, Injectable, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import {
  DeadLetterSchema,
  GetTenantSettingsRequestSchema,
  Rpcs,
  Streams,
  TenantSettingsSchema,
  TurnEventSchema,
  decodeMessage,
  DELIVERY_CEILING_FACTOR,
  type ConsumerSpec,
  type GetTenantSettingsRequest,
  type SetTenantSettingsRequest,
  type TurnEvent,
} from '@engram/contracts';
import { currentLane, PlatformModule, ReadinessRegistry } from '@engram/platform';
import { context, startTelemetry, trace } from '@engram/telemetry';
import { sleep, startNatsServer, waitFor, type NatsServerHandle } from '@engram/testing';
import { ConsumeEventBatches, ConsumeEvents, HandleRpc } from './handlers.decorators';
import { MessagingModule } from './messaging.module';
import { listenOnJetStream } from './listen-on-jetstream';
import { HEARTBEATS_MISSED, RpcClient } from './rpc/rpc.client';
import { RpcError } from './rpc/rpc-error';
import type { Delivery } from './consumers/delivery';
import type { RpcCallContext } from './rpc/rpc.endpoint';

// As in every service: context propagation across awaits needs the SDK's context manager.
startTelemetry('messaging-test');

const singles = {
  stream: Streams.turns,
  durable: 'test-singles',
  description: 'test',
  filterSubject: 'mem.turn.singles.>',
  schema: TurnEventSchema,
  strictDecoding: true,
  maxDeliver: 3,
  ackWaitMs: 3000,
  maxAckPending: 100,
  owner: 'ingest',
  runtime: { batchSize: 1, lingerMs: 0, concurrency: 4 },
  publishes: [],
} satisfies ConsumerSpec;
const batches = {
  ...singles,
  durable: 'test-batches',
  filterSubject: 'mem.turn.batches.>',
} satisfies ConsumerSpec;

/** What the handlers do, decided by each test. */
@Injectable()
class Script {
  onSingle: (d: Delivery<TurnEvent>) => Promise<void> = async () => undefined;
  onBatch: (d: Delivery<TurnEvent>[]) => Promise<void> = async () => undefined;
  onRpc: (tenantId: string) => Promise<{ tenantId: string; memoryEnabled: boolean }> = async (tenantId) => ({
    tenantId,
    memoryEnabled: true,
  });
  onSet: (request: SetTenantSettingsRequest) => Promise<{ memoryEnabled: boolean }> = async (request) => ({
    memoryEnabled: request.memoryEnabled ?? true,
  });
}

@Controller()
class TestHandlers {
  constructor(private readonly script: Script) {}

  @ConsumeEvents(singles)
  single(delivery: Delivery<TurnEvent>) {
    return this.script.onSingle(delivery);
  }

  @ConsumeEventBatches(batches)
  batch(deliveries: Delivery<TurnEvent>[]) {
    return this.script.onBatch(deliveries);
  }

  @HandleRpc(Rpcs.tenantSettingsGet)
  settings(_request: GetTenantSettingsRequest, ctx: RpcCallContext) {
    return this.script.onRpc(ctx.tenantId);
  }

  @HandleRpc(Rpcs.tenantSettingsUpdate)
  setSettings(request: SetTenantSettingsRequest) {
    return this.script.onSet(request);
  }
}

describe('JetStreamServer (real nats-server)', () => {
  let nats: NatsServerHandle;
  let app: INestApplication;
  let script: Script;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  async function startApp(
    rpc = { concurrency: 4, maxQueued: 10 },
    singlesRuntime = {},
    natsCredentials?: { user: string; pass: string },
  ) {
    @Injectable()
    class Module {}
    app = await NestFactory.create(
      {
        module: Module,
        imports: [
          PlatformModule.forRoot({ service: 'test', logLevel: 'silent' }),
          MessagingModule.forRoot({
            service: 'test',
            natsUrl: nats.url,
            natsCredentials,
            streamReplicas: 1,
            consumers: {
              'test-singles': { concurrency: 2, ...singlesRuntime },
              'test-batches': { concurrency: 1, batchSize: 50, lingerMs: 20 },
            },
            retry: { baseDelayMs: 50, maxDelayMs: 200 },
            rpc,
            shutdownGraceMs: 1000,
          }),
        ],
        controllers: [TestHandlers],
        providers: [Script],
      },
      { logger: false },
    );
    await listenOnJetStream(app);
    script = app.get(Script);
  }

  const turn = (turnId: string) =>
    JSON.stringify({ turnId, sessionKey: 's', messages: [{ role: 'user', content: turnId }] });

  async function deadLetters(consumer: string) {
    const letters = [];
    const info = await jsm.streams.info(Streams.deadLetters.name).catch(() => null);
    for (let seq = 1; info && seq <= info.state.last_seq; seq++) {
      const stored = await jsm.streams.getMessage(Streams.deadLetters.name, { seq }).catch(() => null);
      if (!stored) continue;
      const letter = decodeMessage(DeadLetterSchema, stored.data, { strict: false });
      if (letter.consumer === consumer) letters.push(letter);
    }
    return letters;
  }

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    jsm = await jetstreamManager(nc);
  });

  beforeEach(async () => {
    await startApp();
  });

  afterEach(async () => {
    await app.close();
    for (const stream of [Streams.turns.name, Streams.deadLetters.name, Streams.events.name]) {
      await jsm.streams.purge(stream).catch(() => undefined);
    }
  });

  afterAll(async () => {
    await nc.drain();
    await nats.stop();
  });

  it('retries a failing message with backoff until it succeeds, without holding back the next one', async () => {
    const seen: string[] = [];
    const attempts = new Map<string, number>();
    script.onSingle = async (d) => {
      const n = (attempts.get(d.message.turnId) ?? 0) + 1;
      attempts.set(d.message.turnId, n);
      if (d.message.turnId === 'flaky' && n < 3) throw new Error('database is restarting');
      seen.push(`${d.message.turnId}#${d.deliveryCount}`);
    };
    const js = jetstream(nc);
    await js.publish('mem.turn.singles.a', turn('flaky'));
    await js.publish('mem.turn.singles.a', turn('steady'));
    await waitFor('both handled', async () => seen.length === 2, 10_000);
    expect(seen).toEqual(['steady#1', 'flaky#3']);
    expect(await deadLetters('test-singles')).toHaveLength(0);
    const info = await jsm.consumers.info(Streams.turns.name, 'test-singles');
    expect(info.num_ack_pending).toBe(0);
  });

  it("makes a handler's RPCs its consumer's work: the endpoint handles them in the consumer's lane", async () => {
    const lanes: string[] = [];
    script.onRpc = async (tenantId) => {
      lanes.push(currentLane());
      return { tenantId, memoryEnabled: true };
    };
    const client = app.get(RpcClient);
    script.onSingle = async () => {
      await client.call(Rpcs.tenantSettingsGet, {}, { tenantId: 'acme' });
    };
    await jetstream(nc).publish('mem.turn.singles.a', turn('asks'));
    await waitFor('the RPC answered', async () => lanes.length === 1, 10_000);
    // A caller outside any consumer (a user's search) is in the lane of its own: ''.
    await client.call(Rpcs.tenantSettingsGet, {}, { tenantId: 'acme' });
    expect(lanes).toEqual(['test-singles', '']);
  });

  it('dead-letters a message whose deliveries are exhausted, with the last error and the original bytes', async () => {
    script.onSingle = async (d) => {
      if (d.message.turnId === 'poison') throw new Error('constraint violated on row 7');
    };
    const js = jetstream(nc);
    await js.publish('mem.turn.singles.a', turn('poison'));
    await waitFor('dead letter', async () => (await deadLetters('test-singles')).length === 1, 10_000);
    const [letter] = await deadLetters('test-singles');
    expect(letter).toMatchObject({
      cause: 'exhausted',
      deliveries: 3,
      originalSubject: 'mem.turn.singles.a',
      stream: 'TURNS',
    });
    expect(letter!.reason).toContain('constraint violated on row 7');
    expect(new TextDecoder().decode(letter!.originalData)).toBe(turn('poison'));
  });

  it('dead-letters undecodable and rejected messages at once, and handles the rest of the batch', async () => {
    const handled: string[] = [];
    script.onBatch = async (deliveries) => {
      for (const d of deliveries) {
        if (d.message.turnId === 'refused') d.reject('turn refused by the test', { field: 'turnId' });
        else handled.push(d.message.turnId);
      }
    };
    const js = jetstream(nc);
    await js.publish('mem.turn.batches.a', turn('one'));
    await js.publish('mem.turn.batches.a', '{"turnId": 42');
    await js.publish('mem.turn.batches.a', JSON.stringify({ turnId: 'x', unknownField: true }));
    await js.publish('mem.turn.batches.a', turn('refused'));
    await js.publish('mem.turn.batches.a', turn('two'));
    await waitFor('three dead letters', async () => (await deadLetters('test-batches')).length === 3, 10_000);
    await waitFor('two handled', async () => handled.length === 2, 5000);
    expect(handled.sort()).toEqual(['one', 'two']);
    const letters = await deadLetters('test-batches');
    expect(letters.every((l) => l.cause === 'invalid' && l.deliveries === 1)).toBe(true);
    expect(letters.map((l) => l.reason).join('\n')).toMatch(/does not decode as memory\.v1\.TurnEvent/);
    expect(letters.map((l) => l.reason).join('\n')).toMatch(/unknownField/);
    expect(letters.find((l) => l.reason === 'turn refused by the test')?.details).toEqual({
      field: 'turnId',
    });
  });

  it('acknowledges the part of a batch its handler finished while the rest still runs', async () => {
    let release!: () => void;
    const rest = new Promise<void>((r) => (release = r));
    script.onBatch = async (deliveries) => {
      // (Whether the two arrive in one batch or two, 'early' is finished at once and 'late' waits.)
      for (const d of deliveries) if (d.message.turnId === 'early') await d.finish();
      await rest;
      for (const d of deliveries)
        if (d.message.turnId === 'late' && d.deliveryCount === 1) d.retry('the rest fails this time');
    };
    const js = jetstream(nc);
    const ackFloor = async () =>
      (await jsm.consumers.info(Streams.turns.name, 'test-batches')).ack_floor.stream_seq;
    const before = await ackFloor();
    await js.publish('mem.turn.batches.a', turn('early'));
    await js.publish('mem.turn.batches.a', turn('late'));
    await waitFor('the finished part acknowledged', async () => (await ackFloor()) === before + 1, 5000);
    expect((await jsm.consumers.info(Streams.turns.name, 'test-batches')).num_ack_pending).toBe(1);
    release();
    // The handler settled the rest as a retry: it comes back and is acknowledged then.
    await waitFor(
      'the rest redelivered and acknowledged',
      async () => (await ackFloor()) === before + 2,
      10_000,
    );
  });

  it('dead-letters a message whose handler never settles it (the process died every time), from the advisory', async () => {
    // Simulates a worker that dies on the message: it never settles it, so JetStream redelivers it after
    // ack_wait until its delivery ceiling (maxDeliver × DELIVERY_CEILING_FACTOR), then announces it.
    await app.close();
    await startApp(undefined, { maxInFlightMs: 0 });
    let calls = 0;
    script.onSingle = () => {
      calls++;
      return new Promise(() => undefined);
    };
    const js = jetstream(nc);
    await jsm.consumers.update(Streams.turns.name, 'test-singles', { ack_wait: 500_000_000 });
    await js.publish('mem.turn.singles.a', turn('hangs'));
    await waitFor(
      'advisory dead letter',
      async () => (await deadLetters('test-singles')).length === 1,
      20_000,
      200,
    );
    const [letter] = await deadLetters('test-singles');
    expect(letter).toMatchObject({ cause: 'exhausted', originalSubject: 'mem.turn.singles.a' });
    expect(letter!.reason).toMatch(/stopped or timed out/);
    expect(letter!.deliveries).toBe(singles.maxDeliver * DELIVERY_CEILING_FACTOR);
    // The hung handlers hold every slot, so most redeliveries never reach one: as with a dead worker.
    expect(calls).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('does not dead-letter messages while a dependency is down: it pauses and resumes when ready', async () => {
    let databaseUp = false;
    app.get(ReadinessRegistry).register({
      name: 'fake-database',
      check: async () => {
        if (!databaseUp) throw new Error('down');
        return {};
      },
    });
    const handled: number[] = [];
    script.onSingle = async (d) => {
      if (!databaseUp)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      handled.push(d.deliveryCount);
    };
    await jetstream(nc).publish('mem.turn.singles.a', turn('outage'));
    await new Promise((r) => setTimeout(r, 2500));
    expect(handled).toEqual([]);
    databaseUp = true;
    await waitFor('handled after recovery', async () => handled.length === 1, 10_000);
    expect(await deadLetters('test-singles')).toHaveLength(0);
    // Paused while down: a handful of deliveries, not one per retry interval.
    expect(handled[0]).toBeLessThan(singles.maxDeliver);
  });

  it('never runs more handlers at once than the consumer’s concurrency', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    script.onSingle = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      done++;
    };
    const js = jetstream(nc);
    await Promise.all(Array.from({ length: 20 }, (_, i) => js.publish('mem.turn.singles.a', turn(`c${i}`))));
    await waitFor('all handled', async () => done === 20, 10_000);
    expect(peak).toBe(2);
  });

  it('lets in-flight work finish on shutdown and acknowledges it', async () => {
    let finished = false;
    let started = false;
    script.onSingle = async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 500));
      finished = true;
    };
    await jetstream(nc).publish('mem.turn.singles.a', turn('slow'));
    await waitFor('handler started', async () => started, 5000);
    await app.close();
    expect(finished).toBe(true);
    const info = await jsm.consumers.info(Streams.turns.name, 'test-singles');
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
    await startApp(); // afterEach closes it
  });

  it('continues the publisher’s trace in the handler', async () => {
    const traceIds: string[] = [];
    script.onSingle = async () => {
      traceIds.push(trace.getSpanContext(context.active())?.traceId ?? 'none');
    };
    const h = headers();
    h.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    await jetstream(nc).publish('mem.turn.singles.a', turn('traced'), { headers: h });
    await waitFor('handled', async () => traceIds.length === 1, 5000);
    expect(traceIds[0]).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  describe('RPC', () => {
    it('answers through the queue group and the typed client', async () => {
      const reply = await app.get(RpcClient).call(Rpcs.tenantSettingsGet, {}, { tenantId: 'acme' });
      expect(reply).toMatchObject({ tenantId: 'acme', memoryEnabled: true });
    });

    it('answers with NATS credentials on a server without authentication, which ignores them', async () => {
      await app.close();
      await startApp(undefined, {}, { user: 'ingest', pass: 'p-not-configured-anywhere' });
      const reply = await app.get(RpcClient).call(Rpcs.tenantSettingsGet, {}, { tenantId: 'acme' });
      expect(reply).toMatchObject({ tenantId: 'acme', memoryEnabled: true });
    });

    it('answers a structured error the client rethrows with code, message and details', async () => {
      script.onRpc = async (tenantId) => {
        throw RpcError.notFound(`tenant ${tenantId} is unknown`, { tenantId });
      };
      const failure = await app
        .get(RpcClient)
        .call(Rpcs.tenantSettingsGet, {}, { tenantId: 'ghost' })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RpcError);
      expect(failure).toMatchObject({
        code: 'NOT_FOUND',
        message: 'tenant ghost is unknown',
        details: { tenantId: 'ghost' },
      });
    });

    it('hides unexpected errors behind INTERNAL, a store out of reach behind UNAVAILABLE, and says invalid requests are INVALID_ARGUMENT, naming the field', async () => {
      script.onRpc = async () => {
        throw new Error('password=hunter2 leaked in a driver error');
      };
      const internal = await nc.request('mem.rpc.tenant.settings.get.acme', '{}', { timeout: 2000 });
      expect(internal.headers?.get('Nats-Service-Error-Code')).toBe('500');
      expect(internal.string()).not.toContain('hunter2');
      expect(JSON.parse(internal.string()).error.code).toBe('INTERNAL');

      // A store out of reach (Postgres restarting) is UNAVAILABLE: the caller may ask again.
      script.onRpc = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      };
      const down = await nc.request('mem.rpc.tenant.settings.get.acme', '{}', { timeout: 2000 });
      expect(down.headers?.get('Nats-Service-Error-Code')).toBe('503');
      expect(down.string()).not.toContain('5432');
      expect(JSON.parse(down.string()).error).toMatchObject({
        code: 'UNAVAILABLE',
        details: { retryable: true },
      });

      const invalid = await nc.request('mem.rpc.tenant.settings.get.acme', '{"nope": 1}', { timeout: 2000 });
      expect(invalid.headers?.get('Nats-Service-Error-Code')).toBe('400');
      expect(JSON.parse(invalid.string()).error).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(JSON.parse(invalid.string()).error.message).toMatch(/GetTenantSettingsRequest/);
      // What could not be decoded is named as a field violation, as a rule's would be.
      expect(JSON.parse(invalid.string()).error.details.fieldViolations).toEqual([
        { field: 'nope', description: 'nope is not a field of GetTenantSettingsRequest' },
      ]);
    });

    it('checks a request against its rules before its handler runs: INVALID_ARGUMENT, a violation per field', async () => {
      const handled: SetTenantSettingsRequest[] = [];
      script.onSet = async (request) => {
        handled.push(request);
        return { memoryEnabled: request.memoryEnabled! };
      };
      const client = app.get(RpcClient);
      const failure = await client
        .call(Rpcs.tenantSettingsUpdate, {}, { tenantId: 'acme' })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RpcError);
      expect(failure).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'invalid SetTenantSettingsRequest: memoryEnabled is required: it is the setting a set sets',
        details: {
          fieldViolations: [
            {
              field: 'memoryEnabled',
              description: 'memoryEnabled is required: it is the setting a set sets',
            },
          ],
        },
      });
      expect(handled).toEqual([]);

      expect(
        await client.call(Rpcs.tenantSettingsUpdate, { memoryEnabled: false }, { tenantId: 'acme' }),
      ).toMatchObject({ memoryEnabled: false });
      expect(handled.map((r) => r.memoryEnabled)).toEqual([false]);
    });

    it('answers RESOURCE_EXHAUSTED at once when its queue is full', async () => {
      await app.close();
      await startApp({ concurrency: 1, maxQueued: 1 });
      const release = holdRpcAnswers();
      const client = app.get(RpcClient);
      const calls = [1, 2, 3].map(() =>
        client
          .call(Rpcs.tenantSettingsGet, {}, { tenantId: 'acme', timeoutMs: 5000 })
          .catch((e: unknown) => e),
      );
      const third = await calls[2];
      expect(third).toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
      release();
      expect(await calls[0]).toMatchObject({ memoryEnabled: true });
      expect(await calls[1]).toMatchObject({ memoryEnabled: true });
    });

    it('says UNAVAILABLE when no service answers', async () => {
      await app.close();
      await startApp();
      const failure = await app
        .get(RpcClient)
        .call({ ...Rpcs.tenantSettingsGet, subject: 'mem.rpc.nobody.home' }, {}, { tenantId: 'acme' })
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: 'UNAVAILABLE' });
    });

    it('keeps a call with a heartbeat waiting while the endpoint works, and ends it when the endpoint goes silent', async () => {
      const release = holdRpcAnswers();
      const client = app.get(RpcClient);
      const options = { tenantId: 'acme', timeoutMs: 20_000, heartbeatMs: 250 };
      const long = client.call(Rpcs.tenantSettingsGet, {}, options);
      // Twice the silence the call tolerates: the endpoint's "working" messages keep it waiting.
      await sleep(2 * HEARTBEATS_MISSED * options.heartbeatMs);
      release();
      expect(await long).toMatchObject({ memoryEnabled: true });

      // What a killed or stopped process looks like to the caller: it took the request, then nothing.
      const dead = nc.subscribe('mem.rpc.dead.acme');
      await nc.flush(); // the server has the subscription before the call looks for a responder
      const failure = await client
        .call({ ...Rpcs.tenantSettingsGet, subject: 'mem.rpc.dead' }, {}, options)
        .catch((e: unknown) => e);
      dead.unsubscribe();
      // UNAVAILABLE (not DEADLINE_EXCEEDED): it gave up on the silence, long before its 20 s.
      expect(failure).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/went silent/) });
    });
  });

  /** Makes the settings RPC wait until the returned function is called. */
  function holdRpcAnswers(): () => void {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    script.onRpc = async (tenantId) => {
      await gate;
      return { tenantId, memoryEnabled: true };
    };
    return release;
  }

  it('keeps the request schemas strict: a request with an unknown field is rejected', () => {
    expect(() =>
      decodeMessage(GetTenantSettingsRequestSchema, new TextEncoder().encode('{"x":1}'), { strict: true }),
    ).toThrow();
    expect(TenantSettingsSchema.typeName).toBe('memory.v1.TenantSettings');
  });
});
