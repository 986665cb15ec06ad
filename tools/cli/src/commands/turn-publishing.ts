import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { encodeMessage, MsgIds, Rpcs, Subjects, TurnEventSchema } from '@engram/contracts';
import type { AgentTurn } from '@engram/memory-core';
import { callRpc, RpcError } from '@engram/messaging';
import type { Progress } from './progress';

/** Turns published at once, awaiting their PubAcks together (in order: JetStream keeps the publish order). */
const PUBLISH_WINDOW = 256;
/** How often a wait looks whether ingest stored the turns. */
const WAIT_POLL_MS = 500;

/**
 * Publishes turns as a runtime does, in order: on mem.turn.{tenant}.{agent} under MsgIds.turn,
 * each PubAck awaited; answers how many JetStream already held under the same msg id.
 */
export async function publishTurns(
  nc: NatsConnection,
  tenantId: string,
  turns: readonly AgentTurn[],
  progress?: Progress,
): Promise<{ published: number; duplicates: number }> {
  const js = jetstream(nc);
  let duplicates = 0;
  progress?.start(turns.length);
  try {
    for (let i = 0; i < turns.length; i += PUBLISH_WINDOW) {
      const window = turns.slice(i, i + PUBLISH_WINDOW);
      const acks = await Promise.all(
        window.map(({ agent, turn }) =>
          js.publish(Subjects.turn(tenantId, agent), encodeMessage(TurnEventSchema, turn), {
            msgID: MsgIds.turn(tenantId, agent, turn.sessionKey, turn.turnId),
          }),
        ),
      );
      duplicates += acks.filter((ack) => ack.duplicate).length;
      progress?.increment(window.length);
    }
  } finally {
    progress?.stop();
  }
  return { published: turns.length, duplicates };
}

/** A turn as ingest stored it: its conversation and its messages' ids, in order. */
export interface StoredTurn {
  readonly conversationId: string;
  readonly messageIds: readonly string[];
}

/** A turn's key in the maps below: agent, conversation and turn id. */
export const storedTurnKey = (agent: string, sessionKey: string, turnId: string) =>
  `${agent}\u0000${sessionKey}\u0000${turnId}`;

/** The turns stored in a conversation so far, by turn id (none while it does not exist yet). */
export async function storedTurns(
  nc: NatsConnection,
  tenantId: string,
  agent: string,
  sessionKey: string,
): Promise<Map<string, StoredTurn>> {
  const turns = new Map<string, { conversationId: string; messageIds: string[] }>();
  let cursor = '';
  do {
    let page;
    try {
      page = await callRpc(nc, Rpcs.browse, { agent, sessionKey, cursor, limit: 500 }, { tenantId });
    } catch (error) {
      if (error instanceof RpcError && error.code === 'NOT_FOUND') return turns;
      throw error;
    }
    for (const m of page.messages) {
      const turn = turns.get(m.turnId) ?? { conversationId: m.conversationId, messageIds: [] };
      turn.messageIds.push(m.id);
      turns.set(m.turnId, turn);
    }
    cursor = page.nextCursor;
  } while (cursor !== '');
  return turns;
}

/**
 * Waits until every turn is in its conversation's transcript (read with mem.rpc.browse), at
 * most `waitMs` (0: looks once); answers the stored ones by storedTurnKey. A conversation found
 * complete is not read again.
 */
export async function waitUntilStored(
  nc: NatsConnection,
  tenantId: string,
  turns: readonly AgentTurn[],
  waitMs: number,
  progress?: Progress,
): Promise<Map<string, StoredTurn>> {
  const pending = new Map<string, { agent: string; sessionKey: string; turnIds: Set<string> }>();
  for (const { agent, turn } of turns) {
    const key = `${agent}\u0000${turn.sessionKey}`;
    const conversation = pending.get(key) ?? {
      agent,
      sessionKey: turn.sessionKey,
      turnIds: new Set<string>(),
    };
    conversation.turnIds.add(turn.turnId);
    pending.set(key, conversation);
  }
  const total = [...pending.values()].reduce((n, c) => n + c.turnIds.size, 0);
  const stored = new Map<string, StoredTurn>();
  const deadline = Date.now() + waitMs;
  progress?.start(total);
  try {
    for (;;) {
      for (const [key, conversation] of pending) {
        const found = await storedTurns(nc, tenantId, conversation.agent, conversation.sessionKey);
        for (const id of [...conversation.turnIds]) {
          const turn = found.get(id);
          if (!turn) continue;
          stored.set(storedTurnKey(conversation.agent, conversation.sessionKey, id), turn);
          conversation.turnIds.delete(id);
          progress?.increment(1);
        }
        if (conversation.turnIds.size === 0) pending.delete(key);
      }
      if (pending.size === 0 || Date.now() >= deadline) return stored;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  } finally {
    progress?.stop();
  }
}
