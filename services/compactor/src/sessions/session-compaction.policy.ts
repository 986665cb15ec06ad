import type { SessionCompactionPolicy } from '@engram/memory-core';
import type { CompactorConfig } from '../compactor.config';

/** Injection token of the deployment's SessionCompactionPolicy. */
export const SESSION_COMPACTION_POLICY = Symbol('SESSION_COMPACTION_POLICY');

export function sessionCompactionPolicyFrom(config: CompactorConfig): SessionCompactionPolicy {
  return {
    triggerShare: config.COMPACTOR_SESSION_TRIGGER_SHARE,
    keepShare: config.COMPACTOR_SESSION_KEEP_SHARE,
    keepMessages: config.COMPACTOR_SESSION_KEEP_MESSAGES,
    stepMessages: config.COMPACTOR_SESSION_STEP_MESSAGES,
    modelWindows: config.MODEL_WINDOWS,
  };
}
