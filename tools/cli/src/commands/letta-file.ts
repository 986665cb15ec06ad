import { createHash } from 'node:crypto';
import { create, fromJson, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate, ValueSchema } from '@bufbuild/protobuf/wkt';
import { isValidToken, TurnEventSchema, type TurnMessageSchema } from '@engram/contracts';
import { UsageError } from './cli-failure';
import { entityAgent } from '@engram/memory-core';
import {
  definedFields,
  isRecord,
  listOf,
  NotTheFormat,
  objectOf,
  recordName,
  RecordRefused,
  textOf,
  timeOf,
  type JsonRecord,
} from './foreign-json';
import { EMPTY_PLAN, mapRecords, mergePlans, type ImportPlan, type ProfileInit } from './import-plan';

/**
 * A Letta AgentFile (.af) in Engram. Each agent's memory blocks (persona, human, …) become its
 * profile and sticky facts, its messages the transcript of one conversation (a turn per message,
 * the turn id from the message id), its archival passages facts. Both schemas are read: the
 * current one (`agents`, `blocks`, `tools` … with ids) and the first (`core_memory`, `messages`).
 */

/** A Letta agent as read from either schema. */
export interface LettaAgent {
  /** Its id in the file ("agent-0"), or its name in the first schema, which has no ids. */
  readonly id: string;
  readonly name: string;
  readonly place: string;
  readonly record: JsonRecord;
  readonly blocks: readonly JsonRecord[];
  readonly tools: readonly string[];
  readonly messages: readonly unknown[];
  readonly passages: readonly unknown[];
}

const byId = (list: unknown, ids: readonly unknown[]): JsonRecord[] => {
  const all = Array.isArray(list) ? list.filter(isRecord) : [];
  return ids.flatMap((id) => all.filter((item) => item['id'] === id));
};

const records = (value: unknown): JsonRecord[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** The agents of an AgentFile, with their blocks, tools, messages and passages resolved. */
export function lettaAgents(json: unknown): LettaAgent[] {
  if (!isRecord(json)) throw new NotTheFormat('not a JSON object');
  if (Array.isArray(json['agents'])) {
    const passages = records(json['passages']);
    return json['agents'].map((agent, i): LettaAgent => {
      if (!isRecord(agent)) throw new NotTheFormat(`agents[${i}] is not an object`);
      const id = typeof agent['id'] === 'string' ? agent['id'] : `agent-${i}`;
      return {
        id,
        name: typeof agent['name'] === 'string' && agent['name'].trim() !== '' ? agent['name'] : id,
        place: `agents[${i}]`,
        record: agent,
        blocks: [
          ...records(agent['memory_blocks']),
          ...byId(json['blocks'], listOf(agent, 'block_ids') ?? []),
        ],
        tools: byId(json['tools'], listOf(agent, 'tool_ids') ?? []).flatMap((t) =>
          typeof t['name'] === 'string' ? [t['name']] : [],
        ),
        messages: listOf(agent, 'messages') ?? [],
        passages: [
          ...records(agent['passages']),
          ...passages.filter((p) => p['agent_id'] === id || (p['agent_id'] === undefined && i === 0)),
        ],
      };
    });
  }
  if (Array.isArray(json['core_memory']) && typeof json['name'] === 'string')
    return [
      {
        id: json['name'],
        name: json['name'],
        place: 'the agent',
        record: json,
        blocks: records(json['core_memory']),
        tools: records(json['tools']).flatMap((t) => (typeof t['name'] === 'string' ? [t['name']] : [])),
        messages: listOf(json, 'messages') ?? [],
        passages: records(json['passages']),
      },
    ];
  throw new NotTheFormat('no "agents" list (an AgentFile holds agents, blocks, tools …)');
}

/** What the agent calls its user, as a human block states it ("First name: Chad", "Name: Ada"). */
export function userNameIn(human: string): string | undefined {
  const match = /^[ \t]*(?:first[ \t]+)?name[ \t]*:[ \t]*(.+?)[ \t]*$/im.exec(human);
  const name = match?.[1];
  return name && !/^(\?+|unknown|n\/a)$/i.test(name) ? name : undefined;
}

const blockValue = (blocks: readonly JsonRecord[], label: string) =>
  blocks.find((b) => b['label'] === label && typeof b['value'] === 'string')?.['value'] as string | undefined;

/** The agent's profile from its file: name, persona, description, user's name, tools, model, Letta's settings. */
export function lettaProfile(agent: LettaAgent): ProfileInit {
  const persona = blockValue(agent.blocks, 'persona')?.trim();
  const human = blockValue(agent.blocks, 'human');
  const userName = human ? userNameIn(human) : undefined;
  const llm = objectOf(agent.record, 'llm_config');
  const model = typeof llm?.['model'] === 'string' ? llm['model'] : textOf(agent.record, 'model');
  const description = textOf(agent.record, 'description');
  const letta = definedFields({
    agent_id: agent.id,
    agent_type: textOf(agent.record, 'agent_type'),
    system: textOf(agent.record, 'system'),
    tags: listOf(agent.record, 'tags') as JsonValue[] | undefined,
  });
  return {
    name: agent.name,
    ...(persona && { personality: persona }),
    ...(description && { job: description }),
    ...(userName && { userName }),
    // A tool name Engram cannot hold (not a token) is left out, not the profile.
    tools: [...new Set(agent.tools.filter(isValidToken))],
    ...(model && { model }),
    settings: { letta },
  };
}

/** A block as a sticky fact of the agent, under a key naming the agent and the block's label. */
function blockPlan(agent: LettaAgent, owner: string, block: JsonRecord, record: string): ImportPlan {
  const label = textOf(block, 'label');
  const value = textOf(block, 'value');
  if (!label) throw new RecordRefused('has no label');
  if (!value) return EMPTY_PLAN;
  const at = timeOf(block, 'updated_at') ?? timeOf(block, 'created_at');
  const fact = {
    record,
    agent: owner,
    save: {
      key: `letta:${agent.id}:${label}`,
      content: value,
      category: label === 'human' ? 'fact' : 'general',
      lifetime: 'sticky',
      metadata: { letta: { agent_id: agent.id, block: label } },
      ...(at && { validFrom: timestampFromDate(at) }),
    },
  };
  return { ...EMPTY_PLAN, facts: [fact] };
}

/** An archival passage as a fact of the agent. */
function passagePlan(agent: LettaAgent, owner: string, passage: unknown, record: string): ImportPlan {
  if (!isRecord(passage)) throw new RecordRefused('is not an object');
  const text = textOf(passage, 'text');
  if (!text) throw new RecordRefused('has no text');
  const id = textOf(passage, 'id') ?? createHash('sha256').update(text).digest('hex').slice(0, 32);
  const at = timeOf(passage, 'created_at');
  const tags = listOf(passage, 'tags');
  const extra = objectOf(passage, 'metadata');
  return {
    ...EMPTY_PLAN,
    facts: [
      {
        record,
        agent: owner,
        save: {
          key: `letta:${agent.id}:passage:${id}`,
          content: text,
          metadata: {
            letta: {
              agent_id: agent.id,
              passage_id: id,
              ...(tags && tags.length > 0 && { tags: tags as JsonValue[] }),
              ...(extra && { metadata: extra }),
            },
          },
          ...(at && { validFrom: timestampFromDate(at) }),
        },
      },
    ],
  };
}

/** A message's text: its content as a string, or its text parts joined. */
export function contentText(message: JsonRecord): string {
  const content = message['content'] ?? message['text'];
  if (typeof content === 'string') return content.trim();
  return records(content)
    .filter((part) => part['type'] === 'text' && typeof part['text'] === 'string')
    .map((part) => (part['text'] as string).trim())
    .filter((text) => text !== '')
    .join('\n');
}

/** JSON text as its value, else undefined. */
function jsonIn(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * What a user message said: MemGPT-era agents wrap it as {"type": "user_message", "message"};
 * their heartbeats, logins and system alerts are no words of the user (undefined).
 */
export function userWords(text: string): string | undefined {
  const wrapped = text.startsWith('{') ? jsonIn(text) : undefined;
  if (!isRecord(wrapped) || typeof wrapped['type'] !== 'string') return text || undefined;
  return wrapped['type'] === 'user_message' && typeof wrapped['message'] === 'string'
    ? wrapped['message']
    : undefined;
}

interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: JsonValue;
}

function toolCallsOf(message: JsonRecord): ToolCall[] {
  return records(message['tool_calls']).flatMap((call) => {
    const fn = isRecord(call['function']) ? call['function'] : {};
    if (typeof fn['name'] !== 'string') return [];
    const raw = fn['arguments'];
    const args = typeof raw === 'string' ? (jsonIn(raw) ?? raw) : ((raw ?? null) as JsonValue);
    return [{ id: typeof call['id'] === 'string' ? call['id'] : '', name: fn['name'], args }];
  });
}

/** The tool MemGPT-era agents answer with: its `message` argument is the reply the user saw. */
const SEND_MESSAGE = 'send_message';

type TurnMessageInit = MessageInitShape<typeof TurnMessageSchema>;

/**
 * A Letta message as the messages of one turn: the user's words, the assistant's reply (a
 * send_message call's message, else its text) and each other tool call, a tool's result; none for
 * system prompts, heartbeats and send_message's own results. `toolNames` carries the names of
 * the calls seen so far (a result names only its call).
 */
export function lettaMessages(message: JsonRecord, toolNames: Map<string, string>): TurnMessageInit[] {
  const role = textOf(message, 'role');
  const text = contentText(message);
  const at = timeOf(message, 'created_at');
  const createdAt = at ? timestampFromDate(at) : undefined;
  if (role === 'user') {
    const words = userWords(text);
    return words ? [{ role, content: words, author: textOf(message, 'name') ?? '', createdAt }] : [];
  }
  if (role === 'assistant') {
    const calls = toolCallsOf(message);
    for (const call of calls) toolNames.set(call.id, call.name);
    const reply = calls.find((c) => c.name === SEND_MESSAGE);
    const said =
      isRecord(reply?.args) && typeof reply.args['message'] === 'string' ? reply.args['message'] : text;
    return [
      ...(said ? [{ role, content: said, createdAt }] : []),
      ...calls
        .filter((c) => c.name !== SEND_MESSAGE)
        .map((c) => ({
          role,
          toolName: c.name,
          toolArgs: fromJson(ValueSchema, c.args),
          toolCallId: c.id,
          createdAt,
        })),
    ];
  }
  if (role === 'tool') {
    const callId = textOf(message, 'tool_call_id') ?? '';
    const toolName = toolNames.get(callId) ?? textOf(message, 'name') ?? '';
    if (toolName === SEND_MESSAGE) return [];
    const result = jsonIn(text);
    return [
      {
        role,
        content: text,
        toolName,
        toolCallId: callId,
        ...(result !== undefined && { toolResult: fromJson(ValueSchema, result) }),
        createdAt,
      },
    ];
  }
  // System prompts (the compiled memory blocks, again and again) are no part of the conversation.
  return [];
}

/** A stable turn id for a message: from its id, else from what it is (the first schema has no ids). */
function turnIdOf(message: JsonRecord): string {
  const id = textOf(message, 'id');
  if (id) return `letta-${id}`;
  const digest = createHash('sha256')
    .update(JSON.stringify([message['created_at'], message['role'], message['content']]))
    .digest('hex');
  return `letta-${digest.slice(0, 32)}`;
}

function messagesPlan(agent: LettaAgent, owner: string): ImportPlan {
  const toolNames = new Map<string, string>();
  return mapRecords(
    agent.messages,
    (m, i) => recordName(`${agent.place}.messages[${i}]`, isRecord(m) ? m['id'] : undefined),
    (m, record) => {
      if (!isRecord(m)) throw new RecordRefused('is not an object');
      const messages = lettaMessages(m, toolNames);
      if (messages.length === 0) return EMPTY_PLAN;
      const turn = create(TurnEventSchema, {
        turnId: turnIdOf(m),
        sessionKey: `letta-${agent.id}`,
        channel: 'letta',
        title: agent.name,
        messages,
      });
      return { ...EMPTY_PLAN, turns: [{ record, agent: owner, turn }] };
    },
  );
}

function agentPlan(agent: LettaAgent, owner: string): ImportPlan {
  return mergePlans([
    {
      ...EMPTY_PLAN,
      profiles: [{ record: `${agent.place} (${agent.name})`, agent: owner, profile: lettaProfile(agent) }],
    },
    mapRecords(
      agent.blocks,
      (b, i) => `${agent.place} block ${typeof b['label'] === 'string' ? b['label'] : i}`,
      (b, record) => blockPlan(agent, owner, b, record),
    ),
    messagesPlan(agent, owner),
    mapRecords(
      agent.passages,
      (p, i) => recordName(`${agent.place} passage ${i + 1}`, isRecord(p) ? p['id'] : undefined),
      (p, record) => passagePlan(agent, owner, p, record),
    ),
  ]);
}

/** An AgentFile as an import plan: each agent goes to the Engram agent its name maps to (or --agent, for a file of one). */
export function lettaPlan(json: unknown, options: { agent?: string } = {}): ImportPlan {
  const agents = lettaAgents(json);
  if (options.agent && agents.length > 1)
    throw new UsageError(
      `the file holds ${agents.length} Letta agents: each goes to the agent its name maps to; --agent only for a file of one`,
    );
  return mergePlans(agents.map((agent) => agentPlan(agent, options.agent ?? entityAgent(agent.name))));
}
