/** The HTTP API as the page uses it: `POST /v1/<rpc>` with the signed-in key, JSON both ways. */

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

// The shapes the page reads (the protobuf JSON mapping of libs/contracts; see /openapi.json).

export interface AgentProfile {
  agent: string;
  name?: string;
  personality?: string;
  job?: string;
  userName?: string;
  tools: string[];
  model?: string;
  updatedAt?: string;
}

/** One agent of agents/list: its profile when stored, its counts and its latest message. */
export interface AgentSummary {
  agent: string;
  profile?: AgentProfile;
  messages: string;
  conversations: string;
  openFacts: string;
  sceneNodes: string;
  lastMessageAt?: string;
}

export interface TenantSettings {
  tenantId: string;
  memoryEnabled: boolean;
}

export interface Fact {
  id: string;
  agent: string;
  content: string;
  category: string;
  lifetime: string;
  importance: number;
  origin: string;
  conversationId: string;
  sourceMessageIds: string[];
  validFrom?: string;
  validTo?: string;
  supersededBy: string;
  forgetReason: string;
  createdAt?: string;
  expiresAt?: string;
  accessCount: string;
  firstId: string;
}

export interface FactVersion {
  fact: Fact;
  event: string;
  oldContent: string;
  newContent: string;
  at?: string;
}

export interface StateEntry {
  key: string;
  value: string;
  statedAt?: string;
  sourceMessageId: string;
}

export interface Conversation {
  id: string;
  agent: string;
  sessionKey: string;
  channel: string;
  title: string;
  model: string;
  messageCount: string;
  firstMessageAt?: string;
  lastMessageAt?: string;
}

export interface TranscriptMessage {
  id: string;
  conversationId: string;
  agent: string;
  role: string;
  author: string;
  content: string;
  toolName: string;
  toolArgs?: unknown;
  toolResult?: unknown;
  createdAt?: string;
  contentSynthesised: boolean;
  toolCallId: string;
}

export interface Signals {
  fulltext: number;
  semantic: number;
  temporal: number;
  importance: number;
  fused: number;
  timeMatch: number;
}

export interface SearchHit {
  id: string;
  kind: string;
  content: string;
  score: number;
  signals?: Signals;
  createdAt?: string;
  provenance?: {
    agent: string;
    conversationId: string;
    channel: string;
    role: string;
    author: string;
    depth: number;
    sourceMessageIds: string[];
  };
  expandedFrom: string;
}

export interface SearchResponse {
  hits: SearchHit[];
  degraded: boolean;
  degradedReason: string;
  tookMs: number;
  answeredBy: string;
  synthesis?: { answer: string; citedIds: string[]; model: string };
}

export interface BrowsePage {
  messages: TranscriptMessage[];
  nextCursor: string;
  prevCursor: string;
}

export interface Compaction {
  id: string;
  content: string;
  firstMessageId: string;
  lastMessageId: string;
  messageCount: number;
  compactedTokens: number;
  tokenEstimate: number;
  earliestAt?: string;
  latestAt?: string;
  model: string;
  createdAt?: string;
}

export interface DependencyStatus {
  name: string;
  up: boolean;
  reason: string;
}

export interface SystemHealth {
  services: Array<{
    service: string;
    status: 'up' | 'degraded' | 'down';
    instances: Array<{
      instance: string;
      ready: boolean;
      dependencies: DependencyStatus[];
      startedAt?: string;
      lastSeenAt?: string;
    }>;
  }>;
  queues: Array<{ name: string; pending: string; inFlight: string; failed: string }>;
  deadLetters: string;
  activity: Array<{ minute: string; messagesStored: number; vectorsMade: number; meanVectorLagMs: number }>;
}

export interface DeadLetter {
  sequence: string;
  stream: string;
  consumer: string;
  originalSubject: string;
  cause: string;
  reason: string;
  deliveries: number;
  deadAt?: string;
  payload: string;
}
