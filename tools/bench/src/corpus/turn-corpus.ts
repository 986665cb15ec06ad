import { Subjects } from '@engram/contracts';
import { contentLength, type ContentDistribution } from './content-lengths';
import { memoryTag, prose, sentence } from './plausible-text';
import { SeededRandom } from './seeded-random';

export interface CorpusOptions {
  readonly turns: number;
  readonly tenants: number;
  readonly agentsPerTenant: number;
  readonly conversations: number;
  readonly seed: number;
  /** Share of turns that call a tool (user, assistant tool call, tool result, assistant answer). */
  readonly toolTurnShare: number;
  /** Share of turns whose assistant answer carries a [MEMORY:…] tag. */
  readonly memoryTagShare: number;
  /** Message lengths: `short` (chat, 50–600 characters) or `long` (LongMemEval-like, log-normal). */
  readonly content?: ContentDistribution;
  /** Tenant ids to use (the first `tenants` of a fixed list when unset). */
  readonly tenantNames?: readonly string[];
}

export const DEFAULT_CORPUS: CorpusOptions = {
  turns: 20_000,
  tenants: 3,
  agentsPerTenant: 2,
  conversations: 100,
  seed: 42,
  toolTurnShare: 0.1,
  memoryTagShare: 0.01,
  content: 'short',
};

/** One turn as an agent runtime publishes it: subject, Nats-Msg-Id and the protobuf-JSON body. */
export interface CorpusTurn {
  readonly subject: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly turnId: string;
  /** Nats-Msg-Id of the publish: the turn id, as agent runtimes are asked to do. */
  readonly msgId: string;
  readonly payload: Uint8Array;
  readonly messageCount: number;
  readonly payloadBytes: number;
}

export interface TurnCorpus {
  readonly options: CorpusOptions;
  readonly turns: readonly CorpusTurn[];
  readonly messages: number;
  readonly toolTurns: number;
  readonly taggedTurns: number;
  readonly payloadBytes: number;
  readonly contentChars: number;
}

interface Conversation {
  readonly tenantId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly channel: string;
  readonly title: string;
  readonly model: string;
  /** Weight: some conversations are much busier than others. */
  readonly weight: number;
  turnsSoFar: number;
  clock: number;
}

const TENANT_NAMES = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'wonka'];
const AGENT_NAMES = ['assistant', 'support', 'coder', 'planner'];
const CHANNELS = ['web', 'slack', 'cli', 'telegram'];
const MODELS = ['gpt-4o-mini', 'claude-sonnet-4', 'llama-3.1-70b'];
const TOOLS: ReadonlyArray<{
  name: string;
  args: (r: SeededRandom) => unknown;
  result: (r: SeededRandom) => unknown;
}> = [
  {
    name: 'web_search',
    args: (r) => ({ query: sentence(r).slice(0, 60), limit: r.int(3, 10) }),
    result: (r) => ({
      hits: Array.from({ length: r.int(1, 3) }, (_, i) => ({
        rank: i + 1,
        title: sentence(r),
        url: `https://example.com/${r.int(1, 9999)}`,
      })),
    }),
  },
  {
    name: 'calendar_lookup',
    args: (r) => ({ from: '2026-01-05', to: '2026-01-09', attendees: r.int(1, 6) }),
    result: (r) => ({ events: r.int(0, 7), busy: r.chance(0.5), next: '2026-01-06T09:30:00Z' }),
  },
  {
    name: 'run_sql',
    args: (r) => ({ sql: `SELECT count(*) FROM orders WHERE region = 'eu-${r.int(1, 4)}'` }),
    result: (r) => ({ rows: [{ count: r.int(0, 100_000) }], elapsedMs: r.int(2, 900) }),
  },
  {
    name: 'read_file',
    args: (r) => ({ path: `src/services/module-${r.int(1, 40)}.ts` }),
    result: (r) => prose(r, r.int(80, 300), 'assistant'),
  },
];

const encoder = new TextEncoder();
const START = Date.parse('2026-01-05T08:00:00Z');

/**
 * A deterministic corpus of turns from several tenants, agents and conversations,
 * interleaved as concurrent agent runtimes would publish them: mostly a user message
 * and an assistant answer of varied length, some tool calls, a few memory tags.
 */
export function generateTurnCorpus(options: CorpusOptions): TurnCorpus {
  const random = new SeededRandom(options.seed);
  const content = options.content ?? 'short';
  const tenantNames =
    options.tenantNames ?? Array.from({ length: options.tenants }, (_, i) => TENANT_NAMES[i] ?? `tenant${i}`);
  const conversations: Conversation[] = Array.from({ length: options.conversations }, (_, i) => {
    const tenantId = tenantNames[i % tenantNames.length]!;
    const agent = AGENT_NAMES[Math.floor(i / tenantNames.length) % options.agentsPerTenant] ?? 'assistant';
    return {
      tenantId,
      agent,
      sessionKey: `${tenantId}-${agent}-s${String(i).padStart(4, '0')}`,
      channel: random.pick(CHANNELS),
      title: sentence(random).slice(0, 60),
      model: random.pick(MODELS),
      weight: 0.2 + random.next() * 1.8,
      turnsSoFar: 0,
      clock: START + random.int(0, 3_600_000),
    };
  });
  const cumulative: number[] = [];
  conversations.reduce((sum, c, i) => (cumulative[i] = sum + c.weight), 0);
  const totalWeight = cumulative[cumulative.length - 1]!;
  const pickConversation = (): Conversation => {
    const x = random.next() * totalWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return conversations[lo]!;
  };

  const turns: CorpusTurn[] = [];
  let messages = 0;
  let toolTurns = 0;
  let taggedTurns = 0;
  let payloadBytes = 0;
  let contentChars = 0;
  for (let n = 0; n < options.turns; n++) {
    const conversation = pickConversation();
    const turnNumber = conversation.turnsSoFar++;
    conversation.clock += random.int(5_000, 600_000);
    const at = (offsetMs: number) => new Date(conversation.clock + offsetMs).toISOString();
    const body: Array<Record<string, unknown>> = [];
    const userText = prose(random, contentLength(random, 'user', content), 'user');
    body.push({ role: 'user', content: userText, createdAt: at(0) });

    if (random.chance(options.toolTurnShare)) {
      toolTurns++;
      const tool = random.pick(TOOLS);
      const callId = `call_${n.toString(36)}`;
      body.push({
        role: 'assistant',
        content: random.chance(0.5) ? '' : `Let me use ${tool.name} for that.`,
        toolName: tool.name,
        toolCallId: callId,
        toolArgs: tool.args(random),
        createdAt: at(800),
      });
      body.push({
        role: 'tool',
        content: '',
        toolName: tool.name,
        toolCallId: callId,
        toolResult: tool.result(random),
        createdAt: at(1900),
      });
    }
    let answer = prose(random, contentLength(random, 'assistant', content), 'assistant');
    if (random.chance(options.memoryTagShare)) {
      taggedTurns++;
      answer = `${answer}\n${memoryTag(random, n)}`;
    }
    body.push({ role: 'assistant', content: answer, createdAt: at(2500 + answer.length * 10) });

    const event = {
      turnId: `${conversation.sessionKey}-t${String(turnNumber).padStart(5, '0')}`,
      sessionKey: conversation.sessionKey,
      channel: conversation.channel,
      title: turnNumber === 0 ? conversation.title : undefined,
      model: conversation.model,
      occurredAt: at(0),
      messages: body,
    };
    const payload = encoder.encode(JSON.stringify(event));
    for (const m of body) contentChars += String(m['content']).length;
    messages += body.length;
    payloadBytes += payload.byteLength;
    turns.push({
      subject: Subjects.turn(conversation.tenantId, conversation.agent),
      tenantId: conversation.tenantId,
      agent: conversation.agent,
      sessionKey: conversation.sessionKey,
      turnId: event.turnId,
      msgId: event.turnId,
      payload,
      messageCount: body.length,
      payloadBytes: payload.byteLength,
    });
  }
  return { options, turns, messages, toolTurns, taggedTurns, payloadBytes, contentChars };
}
