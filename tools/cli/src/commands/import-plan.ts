import { create, type MessageInitShape } from '@bufbuild/protobuf';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import {
  checkRequest,
  PutAgentRequestSchema,
  Rpcs,
  SaveRequestSchema,
  Subjects,
  type TurnEvent,
} from '@engram/contracts';
import { normalizeTurn, type TurnLimits } from '@engram/memory-core';
import { RecordRefused } from './foreign-json';
import { storedTurnKey } from './turn-publishing';

/**
 * What a file from another memory system becomes in Engram: turns to publish (the transcript),
 * facts to save and agent profiles to put, each named after the record it came from so that a
 * record Engram cannot take is reported by name while the rest is imported.
 */

/** A record of the file that is not imported, and why. */
export interface RecordProblem {
  readonly record: string;
  readonly reason: string;
}

export interface TurnImport {
  readonly record: string;
  readonly agent: string;
  readonly turn: TurnEvent;
}

/** The turns (of the fact's agent) a fact rests on: linked to their stored messages once ingest stored them. */
export interface FactSources {
  readonly turns: ReadonlyArray<{ readonly sessionKey: string; readonly turnId: string }>;
  /** The fact belongs in that conversation (a mem0 run): without its stored turn it is not saved. */
  readonly required: boolean;
}

export type SaveInit = Omit<
  MessageInitShape<typeof SaveRequestSchema>,
  '$typeName' | 'agent' | 'conversationId' | 'sourceMessageIds' | 'validFrom' | 'validTo'
> & { readonly validFrom?: Timestamp; readonly validTo?: Timestamp };

export interface FactImport {
  readonly record: string;
  readonly agent: string;
  /** The save request but its agent and sources; always with an idempotency key. */
  readonly save: SaveInit & { readonly key: string };
  readonly sources?: FactSources;
}

export type ProfileInit = Omit<MessageInitShape<typeof PutAgentRequestSchema>, '$typeName' | 'agent'>;

export interface ProfileImport {
  readonly record: string;
  readonly agent: string;
  /** Put over the agent's stored profile: what the file does not give is kept. */
  readonly profile: ProfileInit;
}

export interface ImportPlan {
  readonly turns: readonly TurnImport[];
  readonly facts: readonly FactImport[];
  readonly profiles: readonly ProfileImport[];
  readonly refused: readonly RecordProblem[];
}

export const EMPTY_PLAN: ImportPlan = { turns: [], facts: [], profiles: [], refused: [] };

/** Several plans as one (a file's records, each mapped on its own). */
export function mergePlans(plans: readonly ImportPlan[]): ImportPlan {
  return {
    turns: plans.flatMap((p) => p.turns),
    facts: plans.flatMap((p) => p.facts),
    profiles: plans.flatMap((p) => p.profiles),
    refused: plans.flatMap((p) => p.refused),
  };
}

/**
 * Maps each record to a plan on its own: a record whose fields cannot be read (RecordRefused)
 * is refused by name, the others are mapped.
 */
export function mapRecords<T>(
  records: readonly T[],
  name: (record: T, index: number) => string,
  map: (record: T, name: string) => ImportPlan,
): ImportPlan {
  return mergePlans(
    records.map((record, index) => {
      const recordName = name(record, index);
      try {
        return map(record, recordName);
      } catch (error) {
        if (!(error instanceof RecordRefused)) throw error;
        return { ...EMPTY_PLAN, refused: [{ record: recordName, reason: error.message }] };
      }
    }),
  );
}

/**
 * The plan with every turn, save and put checked as the services will check them (ingest's turn
 * rules, the RPCs' request rules): what they would refuse is refused here, before anything is
 * sent, and a dry run sees it too. A fact that must rest on a refused turn goes with it.
 */
export function checkPlan(plan: ImportPlan, tenantId: string, limits: TurnLimits): ImportPlan {
  const refused: RecordProblem[] = [...plan.refused];
  const refusedTurns = new Set<string>();
  const turns = plan.turns.filter(({ record, agent, turn }) => {
    const checked = normalizeTurn(
      turn,
      { subject: Subjects.turn(tenantId, agent), streamSequence: 0, receivedAt: new Date(0) },
      limits,
    );
    if (checked.ok) return true;
    refused.push({ record, reason: checked.problems.join('; ') });
    refusedTurns.add(storedTurnKey(agent, turn.sessionKey, turn.turnId));
    return false;
  });
  const facts = plan.facts.filter((fact) => {
    const lost =
      fact.sources?.required === true &&
      fact.sources.turns.some((t) => refusedTurns.has(storedTurnKey(fact.agent, t.sessionKey, t.turnId)));
    const problems = lost
      ? ['the turn it was said in cannot be published']
      : checkRequest(Rpcs.save, create(SaveRequestSchema, { ...fact.save, agent: fact.agent })).map(
          (v) => v.description,
        );
    if (problems.length > 0) refused.push({ record: fact.record, reason: problems.join('; ') });
    return problems.length === 0;
  });
  const profiles = plan.profiles.filter(({ record, agent, profile }) => {
    const problems = checkRequest(Rpcs.agentsPut, create(PutAgentRequestSchema, { ...profile, agent }));
    if (problems.length > 0) refused.push({ record, reason: problems.map((v) => v.description).join('; ') });
    return problems.length === 0;
  });
  return { turns, facts, profiles, refused };
}

/** What a plan holds, for the summary and --dry-run. */
export function planCounts(plan: ImportPlan) {
  const agents = new Set([
    ...plan.turns.map((t) => t.agent),
    ...plan.facts.map((f) => f.agent),
    ...plan.profiles.map((p) => p.agent),
  ]);
  return {
    agents: agents.size,
    conversations: new Set(plan.turns.map(({ agent, turn }) => `${agent}\u0000${turn.sessionKey}`)).size,
    turns: plan.turns.length,
    messages: plan.turns.reduce((n, { turn }) => n + turn.messages.length, 0),
    facts: plan.facts.length,
    closedFacts: plan.facts.filter((f) => f.save.validTo !== undefined).length,
    profiles: plan.profiles.length,
  };
}
