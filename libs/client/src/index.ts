export {
  EngramClient,
  type CallOptions,
  type ClientOptions,
  type HttpClientOptions,
  type NatsClientOptions,
  type PublishTurnOptions,
  type RequestOf,
  type ResponseOf,
  type TurnInit,
} from './engram-client';
export * from './errors';
export { withoutMemoryTags } from './memory-tags';
export { DEFAULT_RETRY_POLICY, backoffDelayMs, type RetryPolicy } from './retry';
export type { PublishedTurn, Transport } from './transport';
export { HttpTransport, type HttpTransportOptions } from './transports/http.transport';
export { NatsTransport, type NatsTransportOptions } from './transports/nats.transport';
// The contracts the client speaks: every RPC's spec for `call`, and the messages' types.
export { httpPath, type RpcSpec } from '@engram/contracts';
export { Rpcs } from './rpcs';
export { create, timestampDate, timestampFromDate, type Timestamp } from '@engram/contracts';
export type {
  AddNoteRequest,
  AddSceneRequest,
  AddSceneResponse,
  AgentProfile,
  Being,
  BeingNote,
  BeingRecallRequest,
  BeingRecallResponse,
  BrowseRequest,
  BrowseResponse,
  ContextBlock,
  ContextBuildRequest,
  ContextBuildResponse,
  ContextCut,
  ExpandRequest,
  ExpandResponse,
  ForgetRequest,
  ForgetResponse,
  GetAgentRequest,
  GetBeingRequest,
  ListNotesRequest,
  ListNotesResponse,
  PatrolReport,
  PutAgentRequest,
  RecallMemoryRequest,
  RunPatrolRequest,
  SaveRequest,
  SaveResponse,
  SceneNode,
  SceneNodesResponse,
  SearchFilters,
  SearchHit,
  SearchMemoryRequest,
  SearchRequest,
  SearchResponse,
  StatsRequest,
  StatsResponse,
  TranscriptMessage,
  TurnEvent,
  TurnMessage,
} from '@engram/contracts';

import type { ExpandRequest, ExpandResponse } from '@engram/contracts';
/** @deprecated The request of `expand()` (mem.rpc.expand, formerly mem.rpc.recall): use ExpandRequest. */
export type RecallRequest = ExpandRequest;
/** @deprecated The answer of `expand()`: use ExpandResponse. */
export type RecallResponse = ExpandResponse;
