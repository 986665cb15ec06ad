import { create, fromJsonString, toJsonString } from '@bufbuild/protobuf';
import {
  protobufReason,
  Subjects,
  TurnEventSchema,
  TurnMessageSchema,
  type Conversation,
  type TranscriptMessage,
  type TurnEvent,
  type TurnMessage,
} from '@engram/contracts';
import { normalizeTurn, type TurnLimits } from '../turns/normalize-turn';
import type { AgentTurn } from './locomo-turns';

/**
 * A transcript file is JSON Lines: one turn per line, the protobuf JSON of TurnEvent (what a
 * runtime publishes), grouped by conversation, each conversation's turns in transcript order.
 * `engram export` writes it and `engram import` publishes it again.
 */

/**
 * The text a message was published with: what ingest kept as raw content when it took memory
 * tags out, empty for a tool call whose content Engram wrote itself, else the content.
 */
function publishedContent(message: TranscriptMessage): string {
  if (message.rawContent !== '') return message.rawContent;
  return message.contentSynthesised ? '' : message.content;
}

function turnMessage(message: TranscriptMessage): TurnMessage {
  const metadata =
    message.metadata && Object.keys(message.metadata).length > 0 ? message.metadata : undefined;
  return create(TurnMessageSchema, {
    role: message.role,
    content: publishedContent(message),
    author: message.author,
    toolName: message.toolName,
    toolArgs: message.toolArgs,
    toolResult: message.toolResult,
    toolCallId: message.toolCallId,
    metadata,
    createdAt: message.createdAt,
  });
}

/**
 * A conversation's stored messages (in transcript order) as the turns that published them: a
 * turn per turn id, in the order of its first message, its messages in transcript order, each
 * with its own time. The conversation's attributes (channel, title, model, settings …, their
 * latest values) ride on its first turn: ingest keeps a value until a turn gives another.
 */
export function turnsOfConversation(
  conversation: Pick<
    Conversation,
    'agent' | 'sessionKey' | 'channel' | 'channelId' | 'botIdentity' | 'title' | 'model' | 'settings'
  >,
  messages: readonly TranscriptMessage[],
): TurnEvent[] {
  const byTurn = new Map<string, TranscriptMessage[]>();
  for (const message of messages) {
    const turn = byTurn.get(message.turnId);
    if (turn) turn.push(message);
    else byTurn.set(message.turnId, [message]);
  }
  return [...byTurn].map(([turnId, turnMessages], i) =>
    create(TurnEventSchema, {
      turnId,
      agent: conversation.agent,
      sessionKey: conversation.sessionKey,
      ...(i === 0 && {
        channel: conversation.channel,
        channelId: conversation.channelId,
        botIdentity: conversation.botIdentity,
        title: conversation.title,
        model: conversation.model,
        settings:
          conversation.settings && Object.keys(conversation.settings).length > 0
            ? conversation.settings
            : undefined,
      }),
      messages: turnMessages.map(turnMessage),
    }),
  );
}

/** One line of a transcript file: the turn's protobuf JSON, defaults left out. */
export function turnLine(turn: TurnEvent): string {
  return toJsonString(TurnEventSchema, turn);
}

/** What a line of a transcript file holds: nothing, a turn for an agent, or why it cannot be published. */
export type TurnLine =
  | { readonly kind: 'blank' }
  | ({ readonly kind: 'turn' } & AgentTurn)
  | { readonly kind: 'refused'; readonly problems: readonly string[] };

export interface TurnLineOptions {
  /** The tenant the turns go to (a tenant a line names is another's: it is dropped). */
  readonly tenantId: string;
  /** The agent every turn goes to; without it, each line's own `agent`. */
  readonly agent?: string;
  readonly limits: TurnLimits;
}

/**
 * Reads a line of a transcript file as a turn to publish, checked as ingest would check it
 * (strict JSON: an unknown field is refused; required fields, roles, sizes), so that a file is
 * refused before anything is published rather than dead-lettered turn by turn.
 */
export function parseTurnLine(line: string, options: TurnLineOptions): TurnLine {
  if (line.trim() === '') return { kind: 'blank' };
  let turn: TurnEvent;
  try {
    turn = fromJsonString(TurnEventSchema, line);
  } catch (error) {
    return {
      kind: 'refused',
      problems: [`not a TurnEvent: ${protobufReason(error)}`],
    };
  }
  const agent = options.agent ?? turn.agent;
  if (agent === '') return { kind: 'refused', problems: ['the turn names no agent (give --agent)'] };
  turn.agent = agent;
  turn.tenantId = '';
  const checked = normalizeTurn(
    turn,
    { subject: Subjects.turn(options.tenantId, agent), streamSequence: 0, receivedAt: new Date(0) },
    options.limits,
  );
  return checked.ok ? { kind: 'turn', agent, turn } : { kind: 'refused', problems: [...checked.problems] };
}
