import { readFile } from 'node:fs/promises';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { encodeMessage, MsgIds, Rpcs, Subjects, TurnEventSchema } from '@engram/contracts';
import {
  LocomoFileError,
  locomoTurns,
  parseLocomo,
  parseTurnLine,
  type AgentTurn,
} from '@engram/memory-core';
import { callRpc, RpcError } from '@engram/messaging';
import { UsageError } from './cli-failure';
import { withNats } from './engram-rpc';
import type { Progress } from './progress';

/** JSON Lines of TurnEvents (what `engram export` writes), or the LoCoMo release format. */
export const TRANSCRIPT_FORMATS = ['jsonl', 'locomo'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Turns published at once, awaiting their PubAcks together (in order: JetStream keeps the publish order). */
const PUBLISH_WINDOW = 256;
/** How often --wait looks whether ingest stored the turns. */
const WAIT_POLL_MS = 500;
/** Most refused lines a failed import lists. */
const SHOWN_PROBLEMS = 10;

export interface ImportOptions {
  readonly file: string;
  readonly tenantId: string;
  /** Every turn goes to this agent; without it, each line's own (LoCoMo: each conversation's sample_id). */
  readonly agent?: string;
  /** Read from the file when absent: a JSON array is LoCoMo, anything else JSON Lines. */
  readonly format?: TranscriptFormat;
  readonly natsUrl?: string;
  /** Wait until ingest stored every turn (through mem.rpc.browse), at most this long. */
  readonly waitMs?: number;
  readonly progress?: { readonly publish: Progress; readonly store: Progress };
}

export interface ImportResult {
  readonly format: TranscriptFormat;
  readonly turns: number;
  readonly messages: number;
  readonly conversations: number;
  /** Turns JetStream took; `duplicates` of them it already held under the same msg id (published before). */
  readonly published: number;
  readonly duplicates: number;
  /** With --wait: the turns ingest stored (all of them, or the wait timed out). */
  readonly stored?: number;
}

/** What a file asks to publish, checked whole: any line ingest would refuse refuses the file. */
export async function readTranscriptFile(
  options: Pick<ImportOptions, 'file' | 'tenantId' | 'agent' | 'format'>,
): Promise<{ format: TranscriptFormat; turns: AgentTurn[] }> {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${options.file}: ${(error as Error).message}`);
  }
  const format = options.format ?? (text.trimStart().startsWith('[') ? 'locomo' : 'jsonl');
  const turns = format === 'locomo' ? locomoFile(text, options) : jsonlFile(text, options);
  return { format, turns };
}

function jsonlFile(text: string, options: Pick<ImportOptions, 'file' | 'tenantId' | 'agent'>): AgentTurn[] {
  const limits = loadConfig(['INGEST_MAX_MESSAGES_PER_TURN', 'INGEST_MAX_CONTENT_CHARS']);
  const turns: AgentTurn[] = [];
  const refused: string[] = [];
  text.split('\n').forEach((line, i) => {
    const read = parseTurnLine(line, {
      tenantId: options.tenantId,
      agent: options.agent,
      limits: {
        maxMessagesPerTurn: limits.INGEST_MAX_MESSAGES_PER_TURN,
        maxContentChars: limits.INGEST_MAX_CONTENT_CHARS,
      },
    });
    if (read.kind === 'turn') turns.push({ agent: read.agent, turn: read.turn });
    else if (read.kind === 'refused') refused.push(`  line ${i + 1}: ${read.problems.join('; ')}`);
  });
  if (refused.length > 0) {
    const more = refused.length > SHOWN_PROBLEMS ? [`  … and ${refused.length - SHOWN_PROBLEMS} more`] : [];
    throw new UsageError(
      `${options.file}: ${refused.length} line(s) cannot be published, so nothing was:\n${[...refused.slice(0, SHOWN_PROBLEMS), ...more].join('\n')}`,
    );
  }
  return turns;
}

function locomoFile(text: string, options: Pick<ImportOptions, 'file' | 'agent'>): AgentTurn[] {
  let conversations;
  try {
    conversations = parseLocomo(JSON.parse(text), options.file);
  } catch (error) {
    if (error instanceof LocomoFileError || error instanceof SyntaxError)
      throw new UsageError(
        error instanceof SyntaxError ? `${options.file} is not JSON: ${error.message}` : error.message,
      );
    throw error;
  }
  if (options.agent && conversations.length > 1)
    throw new UsageError(
      `${options.file} holds ${conversations.length} LoCoMo conversations: each goes to the agent named by its sample_id (their turn ids and sessions repeat); --agent only for a file of one`,
    );
  const turns = locomoTurns(conversations);
  return options.agent ? turns.map(({ turn }) => ({ agent: options.agent!, turn })) : turns;
}

/**
 * Imports a transcript file into a tenant: every turn checked first (nothing is published
 * from a file with a bad line), then published in the file's order on mem.turn.{tenant}.{agent}
 * under MsgIds.turn — as a runtime publishes, so importing again adds nothing — each PubAck
 * awaited; with `waitMs`, until ingest stored every turn.
 */
export async function importTranscript(options: ImportOptions): Promise<ImportResult> {
  const { format, turns } = await readTranscriptFile(options);
  const conversations = new Set(turns.map(({ agent, turn }) => `${agent}\u0000${turn.sessionKey}`)).size;
  const messages = turns.reduce((n, { turn }) => n + turn.messages.length, 0);
  return withNats(async (nc) => {
    const { published, duplicates } = await publishTurns(
      nc,
      options.tenantId,
      turns,
      options.progress?.publish,
    );
    const result = { format, turns: turns.length, messages, conversations, published, duplicates };
    if (options.waitMs === undefined) return result;
    const stored = await waitUntilStored(
      nc,
      options.tenantId,
      turns,
      options.waitMs,
      options.progress?.store,
    );
    return { ...result, stored };
  }, options.natsUrl);
}

async function publishTurns(
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

/**
 * Waits until every turn is in its conversation's transcript (read with mem.rpc.browse), at
 * most `waitMs`; answers how many are. A conversation found complete is not read again.
 */
async function waitUntilStored(
  nc: NatsConnection,
  tenantId: string,
  turns: readonly AgentTurn[],
  waitMs: number,
  progress?: Progress,
): Promise<number> {
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
  let stored = 0;
  const deadline = Date.now() + waitMs;
  progress?.start(total);
  try {
    for (;;) {
      for (const [key, conversation] of pending) {
        const found = await storedTurnIds(nc, tenantId, conversation.agent, conversation.sessionKey);
        const done = [...conversation.turnIds].filter((id) => found.has(id));
        for (const id of done) conversation.turnIds.delete(id);
        stored += done.length;
        progress?.increment(done.length);
        if (conversation.turnIds.size === 0) pending.delete(key);
      }
      if (pending.size === 0 || Date.now() >= deadline) return stored;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  } finally {
    progress?.stop();
  }
}

/** The turn ids stored in a conversation so far (none while it does not exist yet). */
async function storedTurnIds(
  nc: NatsConnection,
  tenantId: string,
  agent: string,
  sessionKey: string,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor = '';
  do {
    let page;
    try {
      page = await callRpc(nc, Rpcs.browse, { agent, sessionKey, cursor, limit: 500 }, { tenantId });
    } catch (error) {
      if (error instanceof RpcError && error.code === 'NOT_FOUND') return ids;
      throw error;
    }
    for (const m of page.messages) ids.add(m.turnId);
    cursor = page.nextCursor;
  } while (cursor !== '');
  return ids;
}
