import { Transcript1760000000000 } from './1760000000000-transcript';
import { EmbeddingWork1760000000001 } from './1760000000001-embedding-work';
import { VectorsApart1760000000002 } from './1760000000002-vectors-apart';
import { LighterVectorGraph1760000000003 } from './1760000000003-lighter-vector-graph';
import { AccessApart1760000000004 } from './1760000000004-access-apart';
import { FactForgetReason1760000000005 } from './1760000000005-fact-forget-reason';
import { VectorsByTenant1760000000006 } from './1760000000006-vectors-by-tenant';
import { ConversationOrderById1760000000007 } from './1760000000007-conversation-order-by-id';
import { SummaryTree1760000000008 } from './1760000000008-summary-tree';
import { SessionCompaction1760000000009 } from './1760000000009-session-compaction';
import { AgentWorkspace1760000000010 } from './1760000000010-agent-workspace';
import { Outbox1760000000011 } from './1760000000011-outbox';
import { BeingMemory1760000000012 } from './1760000000012-being-memory';
import { ApiKeys1760000000013 } from './1760000000013-api-keys';
import { FactHistory1760000000014 } from './1760000000014-fact-history';
import { NodeHistory1760000000015 } from './1760000000015-node-history';
import { Erasures1760000000016 } from './1760000000016-erasures';
import { OutboxSentInIdOrder1760000000017 } from './1760000000017-outbox-sent-in-id-order';
import { VectorSweepMarks1760000000018 } from './1760000000018-vector-sweep-marks';
import { CompactionStepsCutShort1760000000019 } from './1760000000019-compaction-steps-cut-short';
import { SceneRepairs1760000000020 } from './1760000000020-scene-repairs';
import { FtsLanguages1760000000021 } from './1760000000021-fts-languages';
import { MessagesSummarised1760000000022 } from './1760000000022-messages-summarised';
import { FactMetadata1760000000023 } from './1760000000023-fact-metadata';

/** In order. Never edit a migration that has shipped: add the next one. */
export const MIGRATIONS = [
  Transcript1760000000000,
  EmbeddingWork1760000000001,
  VectorsApart1760000000002,
  LighterVectorGraph1760000000003,
  AccessApart1760000000004,
  FactForgetReason1760000000005,
  VectorsByTenant1760000000006,
  ConversationOrderById1760000000007,
  SummaryTree1760000000008,
  SessionCompaction1760000000009,
  AgentWorkspace1760000000010,
  Outbox1760000000011,
  BeingMemory1760000000012,
  ApiKeys1760000000013,
  FactHistory1760000000014,
  NodeHistory1760000000015,
  Erasures1760000000016,
  OutboxSentInIdOrder1760000000017,
  VectorSweepMarks1760000000018,
  CompactionStepsCutShort1760000000019,
  SceneRepairs1760000000020,
  FtsLanguages1760000000021,
  MessagesSummarised1760000000022,
  FactMetadata1760000000023,
];
