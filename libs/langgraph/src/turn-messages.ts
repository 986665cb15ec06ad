import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import type { ContextBlock, TurnInit } from '@engram/client';

/** A message of a turn as `publishTurn` takes it. */
export type TurnMessageInit = NonNullable<TurnInit['messages']>[number];
/** A JSON value as a turn carries it (google.protobuf.Value): a tool call's arguments. */
type ValueInit = NonNullable<TurnMessageInit['toolArgs']>;

/** Engram's role for each LangChain message type it keeps; other types (a RemoveMessage …) are not said. */
const ROLES: Readonly<Record<string, string>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
};

/**
 * A graph's messages as the messages of an Engram turn: the user's and the model's words, a
 * tool call per call of an AI message (name, arguments, id) and a tool's result, each with its
 * text; a message with nothing to keep (no text, no tool call) is left out.
 */
export function turnMessagesOf(messages: readonly BaseMessage[]): TurnMessageInit[] {
  return messages.flatMap((message): TurnMessageInit[] => {
    const role = ROLES[message.type];
    if (!role) return [];
    const content = message.text;
    const said: TurnMessageInit[] = [];
    if (content.trim() !== '') said.push({ role, content, author: authorOf(message) });
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        said.push({
          role,
          content: '',
          toolName: call.name,
          toolArgs: valueOf(call.args),
          toolCallId: call.id ?? '',
        });
      }
    }
    if (ToolMessage.isInstance(message) && said.length > 0) {
      said[0] = { ...said[0], toolName: message.name ?? '', toolCallId: message.tool_call_id };
    }
    return said;
  });
}

/** A JSON value as a google.protobuf.Value (undefined, like a function, as null). */
export function valueOf(json: unknown): ValueInit {
  if (typeof json === 'string') return { kind: { case: 'stringValue', value: json } };
  if (typeof json === 'number') return { kind: { case: 'numberValue', value: json } };
  if (typeof json === 'boolean') return { kind: { case: 'boolValue', value: json } };
  if (Array.isArray(json)) return { kind: { case: 'listValue', value: { values: json.map(valueOf) } } };
  if (json !== null && typeof json === 'object') {
    const fields = Object.fromEntries(Object.entries(json).map(([k, v]) => [k, valueOf(v)]));
    return { kind: { case: 'structValue', value: { fields } } };
  }
  return { kind: { case: 'nullValue', value: 0 } };
}

/** Who said a user's message when the graph names them (`name`); Engram keeps it as the author. */
function authorOf(message: BaseMessage): string {
  return message.type === 'human' ? (message.name ?? '') : '';
}

/**
 * Engram's prompt as LangChain messages: its system blocks (identity, memory, sticky facts …) as
 * one leading SystemMessage, which every chat model accepts, then the conversation's blocks in order.
 */
export function promptMessagesOf(blocks: readonly ContextBlock[]): BaseMessage[] {
  const system = blocks.filter((b) => b.role === 'system').map((b) => b.text);
  const conversation = blocks
    .filter((b) => b.role !== 'system')
    .map((b) => (b.role === 'assistant' ? new AIMessage(b.text) : new HumanMessage(b.text)));
  return [...(system.length > 0 ? [new SystemMessage(system.join('\n\n'))] : []), ...conversation];
}
