import { Injectable } from '@nestjs/common';
import { headers as natsHeaders } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import {
  DeadLetterSchema,
  decodeMessage,
  Streams,
  tenantOfStreamSubject,
  type DeadLetter,
} from '@engram/contracts';
import { NatsClient } from '../connection/nats.client';
import { RpcError } from '../rpc/rpc-error';
import { isJetStreamNotFound } from '../topology/queue-status';

/** Letters a list reads at most, newest first, before it stops looking for the tenant's. */
export const DEAD_LETTER_SCAN_LIMIT = 10_000;
/** How much of the original message a listed letter shows. */
export const DEAD_LETTER_PAYLOAD_CHARS = 4096;

/** A dead letter as the tenant sees it. */
export interface ListedDeadLetter {
  readonly sequence: bigint;
  readonly letter: DeadLetter;
  /** The original message as text, cut at DEAD_LETTER_PAYLOAD_CHARS. */
  readonly payload: string;
}

/**
 * The DEADLETTERS stream, per tenant: the letters whose original subject names the tenant,
 * newest first, and a re-drive, which publishes the original message again on its subject
 * (every worker of that subject sees it once more: they are idempotent by natural keys) and
 * then removes the letter. A letter of another tenant is NOT_FOUND, as one that never was.
 */
@Injectable()
export class DeadLetterBox {
  constructor(private readonly nats: NatsClient) {}

  /** The tenant's letters, newest first, at most `limit` (of the newest DEAD_LETTER_SCAN_LIMIT in the stream). */
  async list(tenantId: string, limit: number): Promise<ListedDeadLetter[]> {
    const { jsm } = await this.nats.connected();
    const state = await streamState(jsm);
    const found: ListedDeadLetter[] = [];
    if (!state || state.messages === 0) return found;
    const oldest = Math.max(1, state.first_seq, state.last_seq - DEAD_LETTER_SCAN_LIMIT + 1);
    for (let seq = state.last_seq; seq >= oldest && found.length < limit; seq--) {
      const letter = await read(jsm, seq);
      if (letter && tenantOfStreamSubject(letter.originalSubject) === tenantId)
        found.push({ sequence: BigInt(seq), letter, payload: payloadText(letter.originalData) });
    }
    return found;
  }

  /** Publishes the letter's original message again and removes the letter: where it went, and its new sequence. */
  async redrive(tenantId: string, sequence: bigint): Promise<{ subject: string; sequence: bigint }> {
    const { js, jsm } = await this.nats.connected();
    const letter = await read(jsm, Number(sequence));
    if (!letter || tenantOfStreamSubject(letter.originalSubject) !== tenantId)
      throw RpcError.notFound(`no dead letter ${sequence}`, { sequence: String(sequence) });
    const h = natsHeaders();
    for (const [key, value] of Object.entries(letter.originalHeaders))
      if (!key.startsWith('Nats-')) h.set(key, value);
    h.set('Engram-Redriven-From', String(sequence));
    // Two re-drives of one letter (a retry, two clicks) publish it once within the duplicate window.
    const ack = await js.publish(letter.originalSubject, letter.originalData, {
      headers: h,
      msgID: `redrive:${letter.stream}:${letter.originalSequence}`,
    });
    await jsm.streams.deleteMessage(Streams.deadLetters.name, Number(sequence), false).catch(() => false);
    return { subject: letter.originalSubject, sequence: BigInt(ack.seq) };
  }
}

/** The stream's first and last sequence; null before any worker made it. */
async function streamState(jsm: JetStreamManager) {
  try {
    return (await jsm.streams.info(Streams.deadLetters.name)).state;
  } catch (error) {
    if (isJetStreamNotFound(error)) return null;
    throw error;
  }
}

/** The letter at `seq`, or null when there is none (removed, re-driven, aged out) or it is not a letter. */
async function read(jsm: JetStreamManager, seq: number): Promise<DeadLetter | null> {
  const stored = await jsm.streams.getMessage(Streams.deadLetters.name, { seq });
  if (!stored) return null;
  try {
    return decodeMessage(DeadLetterSchema, stored.data, { strict: false });
  } catch {
    return null;
  }
}

/** The original bytes as text, cut short (a payload that is not UTF-8 shows its replacement characters). */
export function payloadText(data: Uint8Array): string {
  const text = new TextDecoder('utf-8').decode(data);
  return text.length > DEAD_LETTER_PAYLOAD_CHARS ? `${text.slice(0, DEAD_LETTER_PAYLOAD_CHARS)}…` : text;
}
