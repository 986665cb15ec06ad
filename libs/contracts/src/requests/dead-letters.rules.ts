import { z } from 'zod';
import type {
  ListDeadLettersRequestSchema,
  RedriveDeadLetterRequestSchema,
} from '../gen/memory/v1/dead_letters_pb';
import { rule, type RequestRules } from './request-rules';

/** The rules of the dead-letter RPCs (mem.rpc.deadletters.list, redrive). */

/** Most dead letters one list returns. */
export const MAX_DEAD_LETTERS = 500;
/** How many a list without a limit returns. */
export const DEFAULT_DEAD_LETTERS = 50;

export const deadLettersListRules = z.object({
  limit: rule(z.number(), (n) =>
    n <= MAX_DEAD_LETTERS
      ? undefined
      : `limit must be at most ${MAX_DEAD_LETTERS}, or 0 for ${DEFAULT_DEAD_LETTERS} (got ${n})`,
  ),
}) satisfies RequestRules<typeof ListDeadLettersRequestSchema>;

export const deadLettersRedriveRules = z.object({
  sequence: rule(z.bigint(), (n) =>
    n > 0n ? undefined : 'sequence must name a dead letter (its sequence, from deadletters.list)',
  ),
}) satisfies RequestRules<typeof RedriveDeadLetterRequestSchema>;
