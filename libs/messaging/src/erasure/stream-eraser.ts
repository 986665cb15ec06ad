import { Injectable } from '@nestjs/common';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { Streams, Subjects } from '@engram/contracts';
import { NatsClient } from '../connection/nats.client';
import { isJetStreamNotFound } from '../topology/queue-status';
import { deadLetterInErasure, inErasure, type StreamErasure } from './stream-erasure';

/** What an erasure removed from JetStream. */
export interface StreamsErased {
  /** Turns still kept in TURNS. */
  readonly turns: number;
  /** Dead letters carrying a turn or an event of the scope. */
  readonly deadLetters: number;
}

/** Messages read from a stream per fetch while looking for an erasure's. */
const FETCH = 1000;

/**
 * Removes an erased scope's messages from the streams that keep words: TURNS (each turn, until
 * it ages out) and DEADLETTERS (the original message of each letter). A tenant's or an agent's
 * turns are purged by subject (`mem.turn.{tenant}.{agent}`); a conversation's are found by
 * reading its agent's subject, whose turns name their session key, and deleted one by one, their
 * bytes overwritten. Dead letters name no tenant in their subject: every letter is read. Running
 * it again removes what is left (nothing, once done). MEMORY_EVENTS and WORK hold ids, never
 * words, and are left to age out.
 */
@Injectable()
export class StreamEraser {
  constructor(private readonly nats: NatsClient) {}

  /** Removes the scope's turns and dead letters: how many of each (none for a conversation not found). */
  async erase(erasure: StreamErasure): Promise<StreamsErased> {
    if (erasure.scope !== 'tenant' && erasure.agent === '') return { turns: 0, deadLetters: 0 };
    const { js, jsm } = await this.nats.connected();
    return {
      turns: await this.eraseTurns(js, jsm, erasure),
      deadLetters: await this.eraseDeadLetters(js, jsm, erasure),
    };
  }

  private async eraseTurns(
    js: JetStreamClient,
    jsm: JetStreamManager,
    erasure: StreamErasure,
  ): Promise<number> {
    const { tenantId, scope, agent } = erasure;
    if (scope === 'tenant') return purge(jsm, Subjects.turn(tenantId, '*'));
    if (scope === 'agent') return purge(jsm, Subjects.turn(tenantId, agent));
    if (erasure.sessionKey === '') return 0;
    return deleteWhere(js, jsm, Streams.turns.name, Subjects.turn(tenantId, agent), (subject, data) =>
      inErasure(erasure, subject, data),
    );
  }

  private eraseDeadLetters(
    js: JetStreamClient,
    jsm: JetStreamManager,
    erasure: StreamErasure,
  ): Promise<number> {
    return deleteWhere(js, jsm, Streams.deadLetters.name, Subjects.deadLetterWildcard, (_, data) =>
      deadLetterInErasure(erasure, data),
    );
  }
}

/** Purges a subject of TURNS: how many messages went (0 before the stream exists). */
async function purge(jsm: JetStreamManager, filter: string): Promise<number> {
  try {
    return (await jsm.streams.purge(Streams.turns.name, { filter })).purged;
  } catch (error) {
    if (isJetStreamNotFound(error)) return 0;
    throw error;
  }
}

/**
 * Reads every message of `stream` under `filter` that was there when it started, and deletes
 * (overwriting their bytes) those `matches` picks: how many it deleted.
 */
async function deleteWhere(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  filter: string,
  matches: (subject: string, data: Uint8Array) => boolean,
): Promise<number> {
  let last: number;
  try {
    const { state } = await jsm.streams.info(stream);
    if (state.messages === 0) return 0;
    last = state.last_seq;
  } catch (error) {
    if (isJetStreamNotFound(error)) return 0;
    throw error;
  }
  const found: number[] = [];
  // One subject, not a list: a list of filters needs nats-server 2.10.
  const consumer = await js.consumers.get(stream, { filter_subjects: filter });
  try {
    for (let done = false; !done;) {
      let got = 0;
      for await (const m of await consumer.fetch({ max_messages: FETCH, expires: 1000 })) {
        got++;
        if (m.seq > last) {
          done = true;
          break;
        }
        if (matches(m.subject, m.data)) found.push(m.seq);
        if (m.info.pending === 0 || m.seq === last) done = true;
      }
      if (got === 0) done = true;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  let deleted = 0;
  for (const seq of found)
    if (await jsm.streams.deleteMessage(stream, seq, true).catch(() => false)) deleted++;
  return deleted;
}
