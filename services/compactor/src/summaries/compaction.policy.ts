import type { CompactionPolicy } from '@engram/memory-core';
import type { CompactorConfig } from '../compactor.config';

/** Injection token of the deployment's CompactionPolicy. */
export const COMPACTION_POLICY = Symbol('COMPACTION_POLICY');

export function compactionPolicyFrom(config: CompactorConfig): CompactionPolicy {
  return {
    leafMessages: config.COMPACTOR_LEAF_MESSAGES,
    leafTokens: config.COMPACTOR_LEAF_TOKENS,
    fanOut: config.COMPACTOR_FAN_OUT,
    windowTokens: config.COMPACTOR_MODEL_WINDOW_TOKENS,
    summaryTokens: config.COMPACTOR_SUMMARY_TOKENS,
  };
}
