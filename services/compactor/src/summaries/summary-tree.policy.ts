import type { SummaryTreePolicy } from '@engram/memory-core';
import type { CompactorConfig } from '../compactor.config';

/** Injection token of the deployment's SummaryTreePolicy. */
export const SUMMARY_TREE_POLICY = Symbol('SUMMARY_TREE_POLICY');

export function summaryTreePolicyFrom(config: CompactorConfig): SummaryTreePolicy {
  return {
    leafMessages: config.COMPACTOR_LEAF_MESSAGES,
    leafTokens: config.COMPACTOR_LEAF_TOKENS,
    fanOut: config.COMPACTOR_FAN_OUT,
    windowTokens: config.COMPACTOR_MODEL_WINDOW_TOKENS,
    summaryTokens: config.COMPACTOR_SUMMARY_TOKENS,
  };
}
