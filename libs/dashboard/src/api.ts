/** The HTTP API as the page uses it: `POST /v1/<rpc>` with the signed-in key, JSON both ways. */

import type {
  AgentProfileJson,
  AgentSummaryJson,
  BrowseResponseJson,
  CompactionJson,
  ConversationJson,
  DeadLetterEntryJson,
  DependencyStatusJson,
  FactJson,
  FactVersionJson,
  InstanceHealthJson,
  MinuteActivityJson,
  ProvenanceJson,
  QueueStatsJson,
  SearchHitJson,
  SearchResponseJson,
  ServiceHealthJson,
  SignalScoresJson,
  StateEntryJson,
  SynthesisJson,
  SystemHealthJson,
  TenantSettingsJson,
  TranscriptMessageJson,
} from '@engram/contracts';
import type { Emitted, With } from './wire';

/** A problem+json answer (or a network failure) as an Error the page can show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls one RPC at its route (e.g. 'facts/list') for the key's tenant. */
export async function rpc<T>(key: string, route: string, body: unknown): Promise<T> {
  return answerOf<T>(
    await fetch(`/v1/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    }),
  );
}

/** Reads a GET route of the api (e.g. '/v1/health') with the signed-in key. */
export async function getJson<T>(key: string, path: string): Promise<T> {
  return answerOf<T>(await fetch(path, { headers: { authorization: `Bearer ${key}` } }));
}

/** The JSON of a 2xx answer; a problem+json answer thrown as an ApiError. */
async function answerOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  const json: unknown = text === '' ? {} : JSON.parse(text);
  if (!response.ok) {
    const problem = json as { code?: string; detail?: string; title?: string };
    throw new ApiError(
      response.status,
      problem.code ?? String(response.status),
      problem.detail ?? problem.title ?? response.statusText,
    );
  }
  return json as T;
}

// The messages the page reads: the contracts' protobuf JSON types, as the services emit them (wire.ts).

/** An agent's profile (mem.rpc.agents.get); its `optional` fields are absent when not set. */
export type AgentProfile = Emitted<
  AgentProfileJson,
  'name' | 'personality' | 'job' | 'userName' | 'model' | 'settings' | 'createdAt' | 'updatedAt'
>;

/** One agent of agents/list: its profile when stored, its counts and its latest message. */
export type AgentSummary = With<Emitted<AgentSummaryJson, 'lastMessageAt'>, { profile?: AgentProfile }>;

export type TenantSettings = Emitted<TenantSettingsJson>;

export type Fact = Emitted<
  FactJson,
  'validFrom' | 'validTo' | 'createdAt' | 'updatedAt' | 'expiresAt' | 'lastAccessedAt' | 'metadata'
>;

export type FactVersion = With<Emitted<FactVersionJson, 'at'>, { fact: Fact }>;

export type StateEntry = Emitted<StateEntryJson, 'statedAt' | 'updatedAt'>;

export type Conversation = Emitted<
  ConversationJson,
  'settings' | 'firstMessageAt' | 'lastMessageAt' | 'createdAt'
>;

export type TranscriptMessage = Emitted<
  TranscriptMessageJson,
  'toolArgs' | 'toolResult' | 'metadata' | 'createdAt'
>;

export type Signals = Emitted<SignalScoresJson>;

export type SearchHit = With<
  Emitted<SearchHitJson, 'createdAt' | 'lastAccessedAt'>,
  { signals?: Signals; provenance?: Emitted<ProvenanceJson> }
>;

export type SearchResponse = With<
  Emitted<SearchResponseJson>,
  { hits: SearchHit[]; synthesis?: Emitted<SynthesisJson> }
>;

export type BrowsePage = With<Emitted<BrowseResponseJson>, { messages: TranscriptMessage[] }>;

export type Compaction = Emitted<CompactionJson, 'earliestAt' | 'latestAt' | 'createdAt'>;

export type DependencyStatus = Emitted<DependencyStatusJson>;

/** GET /v1/health: each service from its replicas' heartbeats, the queues and the last hour's activity. */
export type SystemHealth = With<
  Emitted<SystemHealthJson>,
  {
    services: Array<
      With<
        Emitted<ServiceHealthJson>,
        {
          instances: Array<
            With<
              Emitted<InstanceHealthJson, 'startedAt' | 'lastSeenAt'>,
              { dependencies: DependencyStatus[] }
            >
          >;
        }
      >
    >;
    queues: Array<Emitted<QueueStatsJson>>;
    activity: Array<Emitted<MinuteActivityJson>>;
  }
>;

export type DeadLetter = Emitted<DeadLetterEntryJson, 'deadAt' | 'details'>;
