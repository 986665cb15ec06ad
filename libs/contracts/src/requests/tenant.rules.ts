import { z } from 'zod';
import type {
  GetTenantSettingsRequestSchema,
  SetTenantSettingsRequestSchema,
} from '../gen/memory/v1/tenant_pb';
import type { RequestRules } from './request-rules';

/** The rules of mem.rpc.tenant.settings.{get,set}. */

/** A get has no fields (an unknown one is refused when the request is decoded). */
export const tenantSettingsGetRules = z.object({}) satisfies RequestRules<
  typeof GetTenantSettingsRequestSchema
>;

/** A set says what it sets: a set of nothing is a caller's mistake, not a read. */
export const tenantSettingsSetRules = z.object({
  memoryEnabled: z.boolean({ error: 'memoryEnabled is required: it is the setting a set sets' }),
}) satisfies RequestRules<typeof SetTenantSettingsRequestSchema>;
