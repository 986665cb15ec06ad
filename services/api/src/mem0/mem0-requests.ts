import { z } from 'zod';
import { ApiProblem } from '../http/problem';

/** mem0 options Engram accepts and does not act on (its clients send them; refusing them would break apps). */
const ACCEPTED_OPTIONS = {
  app_id: z.string().optional(),
  org_id: z.string().optional(),
  project_id: z.string().optional(),
  output_format: z.string().optional(),
  version: z.string().optional(),
  async_mode: z.boolean().optional(),
  enable_graph: z.boolean().optional(),
  custom_categories: z.array(z.unknown()).optional(),
  custom_instructions: z.string().optional(),
  agent_custom_instructions: z.string().optional(),
  includes: z.string().optional(),
  excludes: z.string().optional(),
  immutable: z.boolean().optional(),
  timestamp: z.union([z.number(), z.string()]).optional(),
  expiration_date: z.string().nullable().optional(),
  structured_data_schema: z.record(z.string(), z.unknown()).optional(),
  rerank: z.boolean().optional(),
  latest_only: z.boolean().optional(),
  fields: z.array(z.string()).optional(),
  show_expired: z.boolean().optional(),
  reference_date: z.union([z.number(), z.string()]).optional(),
  keyword_search: z.boolean().optional(),
  source: z.string().optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
};

const id = z.string().min(1).max(200);

const message = z.strictObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string().min(1, 'content is required').max(100_000),
  name: z.string().max(200).optional(),
});

export const addBody = z.strictObject({
  ...ACCEPTED_OPTIONS,
  messages: z.union([z.string().min(1).max(100_000), z.array(message).min(1).max(100)]),
  user_id: id.optional(),
  agent_id: id.optional(),
  run_id: id.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  infer: z.boolean().optional(),
  categories: z.array(z.string()).optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
});

export const listBody = z.strictObject({
  ...ACCEPTED_OPTIONS,
  filters: z.record(z.string(), z.unknown()).optional(),
  categories: z.array(z.string()).optional(),
});

export const searchBody = z.strictObject({
  ...ACCEPTED_OPTIONS,
  query: z.string().min(1, 'query is required').max(10_000),
  filters: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  top_k: z.number().int().min(1).max(1000).optional(),
  threshold: z.number().min(0).max(1).optional(),
  categories: z.array(z.string()).optional(),
});

export const updateBody = z
  .strictObject({
    text: z.string().min(1, 'text may not be empty').max(4000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    timestamp: z.union([z.number(), z.string()]).optional(),
    expiration_date: z.string().nullable().optional(),
  })
  .refine((body) => body.text !== undefined || body.metadata !== undefined, {
    message: 'give the new text, metadata or both',
    path: ['text'],
  });

export const entityQuery = z.strictObject({
  user_id: id.optional(),
  agent_id: id.optional(),
  run_id: id.optional(),
  app_id: id.optional(),
});

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
});

/** The body checked against its schema; an ApiProblem INVALID_ARGUMENT lists each bad field. */
export function parsed<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new ApiProblem(
    'INVALID_ARGUMENT',
    'invalid request',
    {},
    result.error.issues.map((issue) => ({
      field:
        issue.path.length > 0
          ? issue.path.map(String).join('.')
          : issue.code === 'unrecognized_keys'
            ? issue.keys.join(', ')
            : '',
      detail: issue.message,
    })),
  );
}
