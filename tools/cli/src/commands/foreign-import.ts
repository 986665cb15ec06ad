import { readFile } from 'node:fs/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { MAX_SOURCE_MESSAGES, Rpcs, type AgentProfile, type SaveRequest } from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PutAgentRequestSchema } from '@engram/contracts';
import { fieldViolations, UsageError } from './cli-failure';
import { withNats } from './engram-rpc';
import { NotTheFormat, parseJson } from './foreign-json';
import {
  checkPlan,
  planCounts,
  type FactImport,
  type ImportPlan,
  type ProfileImport,
  type ProfileInit,
  type RecordProblem,
} from './import-plan';
import { lettaPlan } from './letta-file';
import { mem0Plan } from './mem0-file';
import type { Progress } from './progress';
import { publishTurns, storedTurnKey, waitUntilStored, type StoredTurn } from './turn-publishing';
import { zepPlan } from './zep-file';

/** The memory systems `engram import --format` reads besides transcripts, and what each file is called. */
export const FOREIGN_FORMATS = {
  mem0: { plan: mem0Plan, what: 'a mem0 export' },
  letta: { plan: lettaPlan, what: 'a Letta agent file' },
  zep: { plan: zepPlan, what: 'a Zep export' },
} as const;
export type ForeignFormat = keyof typeof FOREIGN_FORMATS;

/** Refusals of the service that are about the record, not about Engram: the rest of the file goes on. */
const RECORD_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'FAILED_PRECONDITION']);

export interface ForeignImportOptions {
  readonly file: string;
  readonly format: ForeignFormat;
  readonly tenantId: string;
  /** Every record goes to this agent (mem0: its user or agent; Letta: the agent's name; Zep: the user). */
  readonly agent?: string;
  /** Read and check the file, count what it would import; connect to nothing. */
  readonly dryRun?: boolean;
  /** How long to wait for ingest to store the published turns (facts are linked to them). */
  readonly waitMs: number;
  readonly natsUrl?: string;
  readonly progress?: { readonly publish: Progress; readonly store: Progress; readonly save: Progress };
}

export interface ForeignImportResult extends ReturnType<typeof planCounts> {
  readonly format: ForeignFormat;
  readonly dryRun: boolean;
  /** Turns already in the transcript before this import (imported before): not published again. */
  readonly turnsAlreadyStored?: number;
  readonly turnsPublished?: number;
  readonly turnsStored?: number;
  /** Facts saved now, and those that were there already (the same key, or an open fact saying the same). */
  readonly factsSaved?: number;
  readonly factsAlreadyThere?: number;
  readonly profilesPut?: number;
  /** Each record not imported, and why. */
  readonly refused: readonly RecordProblem[];
}

/** The file as the format's import plan, checked as the services would check it; exit 2 when it is not that format. */
export async function readForeignFile(options: ForeignImportOptions): Promise<ImportPlan> {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${options.file}: ${(error as Error).message}`);
  }
  const format = FOREIGN_FORMATS[options.format];
  let plan: ImportPlan;
  try {
    plan = format.plan(parseJson(text), { agent: options.agent });
  } catch (error) {
    if (error instanceof NotTheFormat)
      throw new UsageError(`${options.file} is not ${format.what}: ${error.message}`);
    throw error;
  }
  const limits = loadConfig(['INGEST_MAX_MESSAGES_PER_TURN', 'INGEST_MAX_CONTENT_CHARS']);
  return checkPlan(plan, options.tenantId, {
    maxMessagesPerTurn: limits.INGEST_MAX_MESSAGES_PER_TURN,
    maxContentChars: limits.INGEST_MAX_CONTENT_CHARS,
  });
}

/**
 * Imports a file of another memory system: its turns published (those not yet in the
 * transcript) and stored by ingest, then its agents' profiles put and its facts saved under
 * their idempotency keys, linked to the stored turns they rest on. Importing it again adds
 * nothing. A record Engram cannot take is listed in `refused`; the others are imported.
 */
export async function importForeign(options: ForeignImportOptions): Promise<ForeignImportResult> {
  const plan = await readForeignFile(options);
  const counts = { format: options.format, ...planCounts(plan) };
  if (options.dryRun) return { ...counts, dryRun: true, refused: plan.refused };
  return withNats(async (nc) => {
    const refused = [...plan.refused];
    const turns = plan.turns.map(({ agent, turn }) => ({ agent, turn }));
    const before = await waitUntilStored(nc, options.tenantId, turns, 0);
    const fresh = turns.filter(
      ({ agent, turn }) => !before.has(storedTurnKey(agent, turn.sessionKey, turn.turnId)),
    );
    await publishTurns(nc, options.tenantId, fresh, options.progress?.publish);
    const stored = await waitUntilStored(
      nc,
      options.tenantId,
      turns,
      options.waitMs,
      options.progress?.store,
    );
    for (const { record, agent, turn } of plan.turns)
      if (!stored.has(storedTurnKey(agent, turn.sessionKey, turn.turnId)))
        refused.push({
          record,
          reason: `ingest did not store it within ${options.waitMs / 1000} s (import again to finish)`,
        });
    let profilesPut = 0;
    for (const profile of plan.profiles)
      if (await putProfile(nc, options.tenantId, profile, refused)) profilesPut += 1;
    const saved = await saveFacts(nc, options.tenantId, plan.facts, stored, refused, options);
    return {
      ...counts,
      dryRun: false,
      turnsAlreadyStored: before.size,
      turnsPublished: fresh.length,
      turnsStored: stored.size,
      factsSaved: saved.saved,
      factsAlreadyThere: saved.existing,
      profilesPut,
      refused,
    };
  }, options.natsUrl);
}

/** What a refusal of the service says: its message and each field violation. */
const reasonOf = (error: RpcError) => [error.message, ...fieldViolations(error)].join('; ');

/** The stored profile with what the file gives put over it: a field the file leaves out keeps its value. */
export function mergedProfile(
  agent: string,
  stored: AgentProfile | undefined,
  imported: ProfileInit,
): MessageInitShape<typeof PutAgentRequestSchema> {
  return {
    agent,
    name: imported.name ?? stored?.name,
    personality: imported.personality ?? stored?.personality,
    job: imported.job ?? stored?.job,
    userName: imported.userName ?? stored?.userName,
    tools: imported.tools && imported.tools.length > 0 ? imported.tools : (stored?.tools ?? []),
    sceneMemory: stored?.sceneMemory ?? false,
    model: imported.model ?? stored?.model,
    settings: { ...stored?.settings, ...imported.settings },
  };
}

async function putProfile(
  nc: NatsConnection,
  tenantId: string,
  { record, agent, profile }: ProfileImport,
  refused: RecordProblem[],
): Promise<boolean> {
  let stored: AgentProfile | undefined;
  try {
    stored = await callRpc(nc, Rpcs.agentsGet, { agent }, { tenantId });
  } catch (error) {
    if (!(error instanceof RpcError && error.code === 'NOT_FOUND')) throw error;
  }
  try {
    await callRpc(nc, Rpcs.agentsPut, mergedProfile(agent, stored, profile), { tenantId });
    return true;
  } catch (error) {
    if (!(error instanceof RpcError && RECORD_CODES.has(error.code))) throw error;
    refused.push({ record, reason: reasonOf(error) });
    return false;
  }
}

/**
 * Where a fact was said: the stored messages of the turns it rests on, and — for a fact that
 * belongs in its turn's conversation (a mem0 run) — that conversation; undefined when such a
 * turn is not stored.
 */
export function sourcesOf(
  fact: FactImport,
  stored: ReadonlyMap<string, StoredTurn>,
): Pick<SaveRequest, 'conversationId' | 'sourceMessageIds'> | undefined {
  const turns = (fact.sources?.turns ?? []).map((t) =>
    stored.get(storedTurnKey(fact.agent, t.sessionKey, t.turnId)),
  );
  if (fact.sources?.required && turns.some((t) => t === undefined)) return undefined;
  const found = turns.filter((t): t is StoredTurn => t !== undefined);
  return {
    conversationId: fact.sources?.required ? (found[0]?.conversationId ?? '') : '',
    sourceMessageIds: found.flatMap((t) => t.messageIds).slice(0, MAX_SOURCE_MESSAGES),
  };
}

async function saveFacts(
  nc: NatsConnection,
  tenantId: string,
  facts: readonly FactImport[],
  stored: ReadonlyMap<string, StoredTurn>,
  refused: RecordProblem[],
  options: Pick<ForeignImportOptions, 'progress' | 'waitMs'>,
): Promise<{ saved: number; existing: number }> {
  let saved = 0;
  let existing = 0;
  options.progress?.save.start(facts.length);
  try {
    for (const fact of facts) {
      options.progress?.save.increment(1);
      const sources = sourcesOf(fact, stored);
      if (!sources) {
        refused.push({
          record: fact.record,
          reason: 'the turn it was said in is not stored yet (import again to finish)',
        });
        continue;
      }
      try {
        const answer = await callRpc(
          nc,
          Rpcs.save,
          { ...fact.save, ...sources, agent: fact.agent },
          { tenantId },
        );
        if (answer.deduplicated) existing += 1;
        else saved += 1;
      } catch (error) {
        if (!(error instanceof RpcError && RECORD_CODES.has(error.code))) throw error;
        refused.push({ record: fact.record, reason: reasonOf(error) });
      }
    }
  } finally {
    options.progress?.save.stop();
  }
  return { saved, existing };
}
