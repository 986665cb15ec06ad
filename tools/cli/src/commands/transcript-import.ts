import { readFile } from 'node:fs/promises';
import { loadConfig } from '@engram/config';
import {
  LocomoFileError,
  locomoTurns,
  parseLocomo,
  parseTurnLine,
  type AgentTurn,
} from '@engram/memory-core';
import { UsageError } from './cli-failure';
import { withNats } from './engram-rpc';
import type { Progress } from './progress';
import { publishTurns, waitUntilStored } from './turn-publishing';

/** JSON Lines of TurnEvents (what `engram export` writes), or the LoCoMo release format. */
export const TRANSCRIPT_FORMATS = ['jsonl', 'locomo'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

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
    return { ...result, stored: stored.size };
  }, options.natsUrl);
}
