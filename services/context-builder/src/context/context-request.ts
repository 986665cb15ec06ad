import { timestampDate, type ContextBuildRequest } from '@engram/contracts';

export type ConversationRef = { readonly id: string } | { readonly sessionKey: string } | null;

export interface ValidContextRequest {
  readonly agent: string;
  readonly conversation: ConversationRef;
  readonly currentMessage: string;
  /** Empty when the request names none: the conversation's or the agent's model is used. */
  readonly model: string;
  readonly budgetTokens: number | null;
  /** The moment the prompt is for, when the request names one; null: now, the store as it stands. */
  readonly asOf: Date | null;
}

/** What a context request asks for (it passed its rules, libs/contracts contextBuildRules), defaults filled in. */
export function contextRequest(request: ContextBuildRequest): ValidContextRequest {
  const conversation: ConversationRef = request.conversationId
    ? { id: request.conversationId }
    : request.sessionKey
      ? { sessionKey: request.sessionKey }
      : null;
  return {
    agent: request.agent,
    conversation,
    currentMessage: request.currentMessage,
    model: request.model.trim(),
    budgetTokens: request.budgetTokens > 0 ? request.budgetTokens : null,
    asOf: request.asOf ? timestampDate(request.asOf) : null,
  };
}
