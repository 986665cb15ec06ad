import { z } from 'zod';
import type { EraseRequestSchema } from '../gen/memory/v1/erase_pb';
import { optionalToken, rowId } from './field-rules';
import type { RequestRules } from './request-rules';

/** The scope an erase request names. */
export type EraseScope = 'tenant' | 'agent' | 'conversation';

/** The scope of a request that passed eraseRules. */
export function eraseScopeOf(request: {
  readonly agent: string;
  readonly conversationId: string;
  readonly wholeTenant: boolean;
}): EraseScope {
  if (request.conversationId !== '') return 'conversation';
  if (request.agent !== '') return 'agent';
  return 'tenant';
}

/**
 * mem.rpc.erase names exactly one scope. An empty request is refused, not read as the whole
 * tenant: erasing everything must be said (wholeTenant), never fall out of a missing field.
 */
export const eraseRules = z
  .object({
    agent: optionalToken(),
    conversationId: rowId('conversation'),
    wholeTenant: z.boolean(),
  })
  .superRefine((request, ctx) => {
    const named = [
      request.agent ? 'agent' : null,
      request.conversationId ? 'conversationId' : null,
      request.wholeTenant ? 'wholeTenant' : null,
    ].filter((field) => field !== null);
    if (named.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['agent'],
        message: 'say what to erase: agent, conversationId, or wholeTenant: true',
      });
    for (const field of named.slice(1))
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: 'name exactly one scope: agent, conversationId or wholeTenant',
      });
  }) satisfies RequestRules<typeof EraseRequestSchema>;
