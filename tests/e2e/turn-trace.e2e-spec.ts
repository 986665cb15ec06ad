import { headers as natsHeaders } from '@nats-io/transport-node';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Rpcs, rpcSubject } from '@engram/contracts';
import { callRpc, injectTraceContext } from '@engram/messaging';
import { ROOT_CONTEXT, SpanKind, trace, type Span } from '@engram/telemetry';
import {
  renderSpanTrees,
  spanTrees,
  startFakeOpenAiServer,
  startOtlpReceiver,
  startTestEnvironment,
  waitFor,
  type CollectedSpan,
  type FakeOpenAiServer,
  type OtlpReceiver,
  type SpanNode,
  type TestEnvironment,
} from '@engram/testing';

/**
 * One turn, one trace: an agent publishes a turn inside its own span, and every service
 * it passes through (ingest, the outbox, the embedder, Gerty and its model over HTTP,
 * the compactor) exports its spans to a receiver here, each hop the child of the one
 * before. Nothing a turn publishes reaches the patrol: it runs on its schedule or on
 * demand over what a being has gathered, so a patrol run is a trace of its own, from its
 * caller through the patrol to Postgres, Gerty and its outbox. Real services as
 * processes, real NATS and Postgres.
 */
describe('traces across the services: one per turn, one per patrol run', () => {
  let otlp: OtlpReceiver;
  let llm: FakeOpenAiServer;
  let stack: TestEnvironment;
  const agent = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: agent })] });

  beforeAll(async () => {
    [otlp, llm] = await Promise.all([startOtlpReceiver(), startFakeOpenAiServer()]);
    const env = {
      ...otlp.env,
      GERTY_OPENAI_BASE_URL: `${llm.url}/v1`,
      GERTY_OPENAI_CHAT_MODEL: 'tiny-describer',
    };
    stack = await startTestEnvironment({
      label: 'turn_trace',
      processes: (['gerty', 'ingest', 'embedder', 'compactor', 'patrol'] as const).map((name) => ({
        name,
        env,
      })),
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([otlp?.close(), llm?.close(), provider.shutdown()]);
  });

  it('is one tree: publisher → ingest → outbox → embedder and compactor → Gerty → model over HTTP', async () => {
    // What an agent runtime does: publish the turn inside its span, the span's context in the headers.
    const root = provider.getTracer('agent').startSpan('publish turn', { kind: SpanKind.PRODUCER });
    const headers = injectTraceContext(natsHeaders(), trace.setSpan(ROOT_CONTEXT, root));
    await stack.js.publish(
      'mem.turn.acme.helper',
      JSON.stringify({
        turnId: 'traced-1',
        sessionKey: 'weather',
        messages: [
          { role: 'user', content: 'What is the weather in Lisbon?' },
          { role: 'assistant', content: '', toolName: 'get_weather', toolArgs: { city: 'Lisbon' } },
          { role: 'assistant', content: 'It is 18 degrees and sunny.' },
        ],
      }),
      { msgID: 'traced-1', headers },
    );
    root.end();
    const traceId = root.spanContext().traceId;
    const spans = spansOf(root);
    const path = pathIn(spans, traceId);

    // The chain, each hop the child (or a descendant) of the one before.
    const chain = [
      'agent: publish turn',
      'engram-ingest: consume ingest-turns',
      'engram-ingest: outbox publish',
      'engram-embedder: consume embedder-messages',
    ];
    try {
      await waitFor('the embedder under the ingest under the agent', path(...chain), 20_000);
      await waitFor('Gerty embedding for the embedder', path(...chain, 'engram-gerty: '), 10_000);
      await waitFor(
        'the described tool call: embedder → outbox → embedder-toolsynth → Gerty → the model over HTTP',
        path(
          ...chain,
          'engram-embedder: outbox publish',
          'engram-embedder: consume embedder-toolsynth',
          'engram-gerty: ',
          'engram-gerty: POST',
        ),
        20_000,
      );
      await waitFor(
        "the compactor's fact extraction: ingest's outbox → compactor-facts → Gerty → the model over HTTP",
        path(
          ...chain.slice(0, 3),
          'engram-compactor: consume compactor-facts',
          'engram-gerty: rpc',
          'engram-gerty: POST',
        ),
        20_000,
      );
    } finally {
      await new Promise((settled) => setTimeout(settled, 500));
      console.log(`the trace of turn traced-1:\n${renderSpanTrees(spanTrees(spans(), traceId))}`);
    }
    const trees = spanTrees(spans(), traceId);
    expect(trees.map((t) => `${t.span.service}: ${t.span.name}`)).toEqual(['agent: publish turn']);
    expect(
      pathOf(trees, ['agent: publish turn', 'engram-ingest: consume ingest-turns', 'engram-ingest: pg']),
    ).toBeDefined();
  }, 90_000);

  it('a patrol run is one tree: caller → patrol → Postgres, Gerty and the outbox', async () => {
    await callRpc(
      stack.nc,
      Rpcs.beingScenesAdd,
      {
        agent: 'helper',
        scene: JSON.stringify({ action: 'looked up the weather in Lisbon', actors: ['the user'] }),
      },
      { tenantId: 'acme' },
    );
    const root = provider.getTracer('agent').startSpan('run patrol', { kind: SpanKind.CLIENT });
    const headers = injectTraceContext(natsHeaders(), trace.setSpan(ROOT_CONTEXT, root));
    const reply = await stack.nc.request(
      rpcSubject(Rpcs.patrolRun, 'acme'),
      JSON.stringify({ agent: 'helper' }),
      { timeout: 60_000, headers },
    );
    root.end();
    const traceId = root.spanContext().traceId;
    const spans = spansOf(root);
    const path = pathIn(spans, traceId);
    const patrol = ['agent: run patrol', 'engram-patrol: rpc mem.rpc.patrol.run'];
    try {
      expect(reply.json<{ steps?: unknown[] }>().steps?.length).toBeGreaterThan(0);
      await waitFor(
        'the patrol under its caller, with its queries',
        path(...patrol, 'engram-patrol: pg'),
        20_000,
      );
      await waitFor(
        'the scene note embedded by Gerty for the patrol',
        path(...patrol, 'engram-gerty: rpc gerty.rpc.embed'),
        20_000,
      );
      await waitFor(
        'mem.patrol.completed relayed by the outbox under the run',
        path(...patrol, 'engram-patrol: outbox publish'),
        20_000,
      );
    } finally {
      await new Promise((settled) => setTimeout(settled, 500));
      console.log(`the trace of a patrol run:\n${renderSpanTrees(spanTrees(spans(), traceId))}`);
    }
    expect(spanTrees(spans(), traceId).map((t) => `${t.span.service}: ${t.span.name}`)).toEqual([
      'agent: run patrol',
    ]);
  }, 90_000);

  /** What the receiver holds of `root`'s trace, with `root` itself (the test's own span, not exported). */
  function spansOf(root: Span): () => CollectedSpan[] {
    const finished = agent
      .getFinishedSpans()
      .find((s) => s.spanContext().spanId === root.spanContext().spanId)!;
    const own: CollectedSpan = {
      traceId: root.spanContext().traceId,
      spanId: finished.spanContext().spanId,
      name: finished.name,
      service: 'agent',
      startTimeUnixNano: String(
        BigInt(finished.startTime[0]) * 1_000_000_000n + BigInt(finished.startTime[1]),
      ),
    };
    return () => [own, ...otlp.spans];
  }
});

/** A probe: whether the trace holds a chain of `steps`, each a descendant of the one before. */
function pathIn(spans: () => CollectedSpan[], traceId: string) {
  return (...steps: string[]) =>
    async (): Promise<boolean> =>
      pathOf(spanTrees(spans(), traceId), steps) !== undefined;
}

/** The node at the end of `steps`, each step a descendant of the one before (matched by prefix of `service: name`). */
function pathOf(trees: readonly SpanNode[], steps: readonly string[]): SpanNode | undefined {
  const [first, ...rest] = steps;
  if (first === undefined) return undefined;
  for (const node of descendants(trees)) {
    if (!`${node.span.service}: ${node.span.name}`.startsWith(first)) continue;
    if (rest.length === 0) return node;
    const found = pathOf(node.children, rest);
    if (found) return found;
  }
  return undefined;
}

function* descendants(trees: readonly SpanNode[]): Generator<SpanNode> {
  for (const node of trees) {
    yield node;
    yield* descendants(node.children);
  }
}
