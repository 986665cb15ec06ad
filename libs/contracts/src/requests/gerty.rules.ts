import { z } from 'zod';
import type {
  CompleteRequestSchema,
  EmbedRequestSchema,
  ListModelsRequestSchema,
  SetTenantKeyRequestSchema,
} from '../gen/memory/v1/gerty_pb';
import { TASKS } from '../values/vocabulary';
import { oneOf, optionalToken, quoted } from './field-rules';
import { rule, type RequestRules } from './request-rules';

/** The rules of Gerty's RPCs (gerty.rpc.embed, complete, models, keys.set). */

/** Most texts one embed request may carry. */
export const MAX_EMBED_TEXTS = 2048;
const CHAT_ROLES = ['system', 'user', 'assistant'];

export const embedRules = z.object({
  texts: rule(z.array(z.string()), (texts) =>
    texts.length > MAX_EMBED_TEXTS
      ? `at most ${MAX_EMBED_TEXTS} texts per request (got ${texts.length})`
      : undefined,
  ),
  // The tenant whose own key pays, when a service embeds on a tenant's behalf.
  tenantId: optionalToken(),
}) satisfies RequestRules<typeof EmbedRequestSchema>;

/**
 * A task's input is checked by Gerty against the task's schema (libs/prompts), where the
 * tasks' prompts live; here only that the task is one.
 */
export const completeRules = z
  .object({
    task: oneOf(TASKS),
    tenantId: optionalToken(),
    messages: z.array(
      z.object({
        role: rule(z.string(), (role, field) =>
          CHAT_ROLES.includes(role)
            ? undefined
            : `${field} must be system, user or assistant (got ${quoted(role)})`,
        ),
      }),
    ),
  })
  .superRefine((request, ctx) => {
    if (!request.task && request.messages.length === 0)
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'give messages, or a task' });
  }) satisfies RequestRules<typeof CompleteRequestSchema>;

/** No fields (an unknown one is refused when the request is decoded). */
export const listModelsRules = z.object({}) satisfies RequestRules<typeof ListModelsRequestSchema>;

export const setTenantKeyRules = z.object({
  model: rule(z.string(), (model) => (model === '' ? 'model is required' : undefined)),
}) satisfies RequestRules<typeof SetTenantKeyRequestSchema>;
