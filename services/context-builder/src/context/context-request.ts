import { timestampDate, type ContextBuildRequest } from '@engram/contracts';
import { isValidToken } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

/** Longer than any sensible turn; a larger one is surely a mistake worth telling about. */
export const MAX_CURRENT_MESSAGE_CHARS = 1_000_000;

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

/** The request, checked field by field; a bad one gets INVALID_ARGUMENT naming the field. */
export function validateContextRequest(
  request: ContextBuildRequest,
  clock: () => Date = () => new Date(),
): ValidContextRequest {
  if (!isValidToken(request.agent)) {
    throw RpcError.invalidArgument('agent must be 1–64 letters, digits, "_" or "-"', {
      field: 'agent',
      agent: request.agent,
    });
  }
  if (request.conversationId && request.sessionKey) {
    throw RpcError.invalidArgument('give conversationId or sessionKey, not both', {
      field: 'conversationId',
    });
  }
  if (request.conversationId && !/^\d{1,19}$/.test(request.conversationId)) {
    throw RpcError.invalidArgument('conversationId is not a conversation id', { field: 'conversationId' });
  }
  if (request.currentMessage.length > MAX_CURRENT_MESSAGE_CHARS) {
    throw RpcError.invalidArgument(`currentMessage is longer than ${MAX_CURRENT_MESSAGE_CHARS} characters`, {
      field: 'currentMessage',
    });
  }
  if (request.budgetTokens < 0) {
    throw RpcError.invalidArgument('budgetTokens must be positive (or 0 for the model default)', {
      field: 'budgetTokens',
    });
  }
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
