import { timestampDate, type ContextBuildRequest } from '@engram/contracts';
import { RequestChecks } from '../agents/request-checks';

export type ConversationRef = { readonly id: string } | { readonly sessionKey: string } | null;

export interface ValidContextRequest {
  readonly agent: string;
  readonly conversation: ConversationRef;
  readonly currentMessage: string;
  /** Empty when the request names none: the conversation's or the agent's model is used. */
  readonly model: string;
  readonly budgetTokens: number | null;
  readonly now: Date;
}

/** The request, checked field by field; a bad one gets INVALID_ARGUMENT with a violation per field. */
export function validateContextRequest(
  request: ContextBuildRequest,
  clock: () => Date = () => new Date(),
): ValidContextRequest {
  const checks = new RequestChecks('context request');
  checks.agent(request.agent);
  if (request.conversationId && request.sessionKey)
    checks.problem('conversationId', 'give conversationId or sessionKey, not both');
  if (request.conversationId && !/^\d{1,19}$/.test(request.conversationId))
    checks.problem('conversationId', 'conversationId is not a conversation id');
  checks.text('currentMessage', request.currentMessage);
  if (request.budgetTokens < 0)
    checks.problem('budgetTokens', 'budgetTokens must be positive (or 0 for the model default)');
  checks.done();
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
    now: request.now ? timestampDate(request.now) : clock(),
  };
}
