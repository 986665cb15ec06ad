import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import type { ContextBuildRequestSchema } from '../gen/memory/v1/context_pb';
import { rowId, text, token } from './field-rules';
import { given, rule, type RequestRules } from './request-rules';

/** The rules of mem.rpc.context.build. */
export const contextBuildRules = z
  .object({
    agent: token(),
    conversationId: rowId('conversation'),
    sessionKey: z.string(),
    currentMessage: text(),
    budgetTokens: rule(z.number(), (budget) =>
      budget < 0 ? 'budgetTokens must be positive (or 0 for the model default)' : undefined,
    ),
    asOf: given<Timestamp>(),
  })
  .superRefine((request, ctx) => {
    if (request.conversationId && request.sessionKey)
      ctx.addIssue({
        code: 'custom',
        path: ['conversationId'],
        message: 'give conversationId or sessionKey, not both',
      });
  }) satisfies RequestRules<typeof ContextBuildRequestSchema>;
