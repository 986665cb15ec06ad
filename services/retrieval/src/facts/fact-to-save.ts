import { isValidToken, type SaveRequest } from '@engram/contracts';
import {
  DEFAULT_IMPORTANCE,
  FACT_CATEGORIES,
  FACT_LIFETIMES,
  isFactCategory,
  isFactLifetime,
  isRowId,
  type FactCategory,
  type FactLifetime,
} from '@engram/memory-core';
import { RpcError } from '@engram/messaging';

/** Longest fact memory_save accepts, in characters (code points): a fact, not a document. */
export const MAX_FACT_CHARS = 4000;
/** Most source messages one saved fact may cite. */
export const MAX_SOURCE_MESSAGES = 100;

/** A save request, checked and with its defaults filled in. */
export interface FactToSave {
  readonly agent: string;
  /** Trimmed. */
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly conversationId: string | null;
  /** Distinct, in the order given. */
  readonly sourceMessageIds: readonly string[];
}

interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/**
 * Checks a memory_save request and fills in the defaults: category `general`, lifetime
 * `sticky`, importance by category. Every problem is reported at once, as
 * INVALID_ARGUMENT with one field violation per problem.
 */
export function factToSave(request: SaveRequest): FactToSave {
  const problems: FieldViolation[] = [];
  const problem = (field: string, description: string) => problems.push({ field, description });

  const agent = request.agent;
  if (agent === '') problem('agent', 'agent is required');
  else if (!isValidToken(agent)) problem('agent', 'agent must be 1-64 letters, digits, "_" or "-"');

  const content = request.content.trim();
  const chars = [...content].length;
  if (content === '') problem('content', 'content is required');
  else if (chars > MAX_FACT_CHARS)
    problem('content', `content is ${chars} characters long; at most ${MAX_FACT_CHARS} are accepted`);
  if (content.includes('\u0000')) problem('content', 'content may not contain NUL characters');

  const category = request.category.trim().toLowerCase() || 'general';
  if (!isFactCategory(category))
    problem('category', `category must be one of ${FACT_CATEGORIES.join(', ')} (got "${request.category}")`);

  const lifetime = request.lifetime.trim().toLowerCase() || 'sticky';
  if (!isFactLifetime(lifetime))
    problem('lifetime', `lifetime must be one of ${FACT_LIFETIMES.join(', ')} (got "${request.lifetime}")`);

  if (request.importance !== 0 && (request.importance < 1 || request.importance > 10)) {
    problem(
      'importance',
      `importance must be between 1 and 10, or 0 for the category's default (got ${request.importance})`,
    );
  }

  const conversationId = request.conversationId === '' ? null : request.conversationId;
  if (conversationId !== null && !isRowId(conversationId))
    problem('conversationId', `"${conversationId}" is not a conversation id`);

  const sourceMessageIds = [...new Set(request.sourceMessageIds)];
  if (sourceMessageIds.length > MAX_SOURCE_MESSAGES) {
    problem(
      'sourceMessageIds',
      `at most ${MAX_SOURCE_MESSAGES} source messages may be cited (got ${sourceMessageIds.length})`,
    );
  }
  const malformed = sourceMessageIds.filter((id) => !isRowId(id));
  if (malformed.length > 0)
    problem(
      'sourceMessageIds',
      `not message ids: ${malformed
        .slice(0, 5)
        .map((id) => `"${id}"`)
        .join(', ')}`,
    );

  if (problems.length > 0) {
    throw RpcError.invalidArgument(`invalid save: ${problems.map((p) => p.description).join('; ')}`, {
      fieldViolations: problems,
    });
  }
  const known = category as FactCategory;
  return {
    agent,
    content,
    category: known,
    lifetime: lifetime as FactLifetime,
    importance: request.importance === 0 ? DEFAULT_IMPORTANCE[known] : request.importance,
    conversationId,
    sourceMessageIds,
  };
}
