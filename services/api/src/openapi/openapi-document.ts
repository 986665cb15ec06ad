import {
  JsonSchemas,
  SystemHealthSchema,
  TurnEventSchema,
  type JsonSchema,
  type ServiceName,
} from '@engram/contracts';
import { HTTP_ERROR_CODES } from '../http/problem';
import type { RpcRoute } from '../rpc/rpc-routes';

/** Tags group the reference page by what the routes are about (the service that answers them). */
const TAG_OF: Partial<Record<ServiceName, string>> = {
  retrieval: 'Memory',
  'context-builder': 'Context and agents',
  patrol: 'Being memory',
  ingest: 'Tenant',
};

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'RFC 9457 problem details, with the error code and, for a bad request, one entry per bad field.',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(HTTP_ERROR_CODES) },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'detail'],
        properties: { field: { type: 'string' }, detail: { type: 'string' } },
      },
    },
  },
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The failures every route may answer. */
const COMMON_PROBLEMS = {
  '400': problemResponse(
    'A bad request: malformed JSON, an unknown field, or bad fields (listed in `errors`).',
  ),
  '401': problemResponse('No API key, or an unknown or revoked one.'),
  '413': problemResponse('The body is larger than API_MAX_BODY_BYTES.'),
  '429': problemResponse('The key’s rate limit is reached (see the Retry-After header).'),
  '503': problemResponse('The service behind the route is not running or not reachable.'),
  '504': problemResponse('The service behind the route did not answer in time.'),
};

const DESCRIPTION = `Engram's HTTP API: long-term memory for AI agents.

Every route needs an API key (\`Authorization: Bearer egm_…\`; make one with
\`npm run engram -- apikey create --tenant <tenant>\`); the key decides the tenant.
Each memory RPC is \`POST /v1/<rpc>\` with its request as JSON (the protobuf JSON mapping:
camelCase fields, unknown fields refused) and answers its response as JSON.
Errors are \`application/problem+json\` (RFC 9457) with \`code\` and, for bad fields, \`errors\`.
Bodies are limited to API_MAX_BODY_BYTES (1 MiB by default; 413 beyond), and each key to
API_RATE_LIMIT_PER_MINUTE requests a minute per api replica (429 with Retry-After beyond).`;

/** The OpenAPI 3.1 document of the routes: generated from the RPC table and the protobuf contracts. */
export function openApiDocument(routes: readonly RpcRoute[], version: string): JsonSchema {
  const schemas = new JsonSchemas();
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    paths[route.path] = {
      post: {
        operationId: route.name,
        summary: route.summary,
        ...(route.replacedBy ? { deprecated: true } : {}),
        tags: [TAG_OF[route.spec.owner] ?? 'Memory'],
        description: `The NATS RPC \`${route.spec.subject}.{tenant}\`, for the key's tenant.`,
        requestBody: {
          required: false,
          content: { 'application/json': { schema: schemas.ref(route.spec.request) } },
        },
        responses: {
          '200': {
            description: 'The answer.',
            content: { 'application/json': { schema: schemas.ref(route.spec.response) } },
          },
          ...COMMON_PROBLEMS,
          '404': problemResponse('What the request names does not exist (for this tenant).'),
          '412': problemResponse('The request cannot be done in the current state.'),
        },
      },
    };
  }
  paths['/v1/turns/{agent}'] = {
    post: {
      operationId: 'publishTurn',
      summary: 'Publish a turn of a conversation: stored durably, then summarised, embedded and distilled.',
      tags: ['Memory'],
      description:
        'Checked as ingest checks it, then published on `mem.turn.{tenant}.{agent}`. Idempotent: the same turn (same `Idempotency-Key`, by default its `turnId`) is stored once.',
      parameters: [
        {
          name: 'agent',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
        },
        { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemas.ref(TurnEventSchema) } },
      },
      responses: {
        '202': {
          description: 'Durable in the TURNS stream (or already there: `duplicate`).',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['stream', 'seq', 'duplicate'],
                properties: {
                  stream: { type: 'string' },
                  seq: { type: 'integer' },
                  duplicate: { type: 'boolean' },
                },
              },
            },
          },
        },
        ...COMMON_PROBLEMS,
      },
    },
  };
  paths['/v1/health'] = {
    get: {
      operationId: 'systemHealth',
      summary:
        "Every service's replicas and whether each is ready, the workers' queues, and the last hour's ingest and vector activity.",
      tags: ['Tenant'],
      description:
        'From the heartbeats every replica sends each 5 s on `mem.control.heartbeat.{service}` and from JetStream. Over all tenants.',
      responses: {
        '200': {
          description: 'The report.',
          content: { 'application/json': { schema: schemas.ref(SystemHealthSchema) } },
        },
        ...COMMON_PROBLEMS,
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Engram', version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: ['Memory', 'Context and agents', 'Being memory', 'Tenant'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An Engram API key (egm_…).' },
      },
      schemas: { ...schemas.definitions, Problem: PROBLEM_SCHEMA },
    },
  };
}
