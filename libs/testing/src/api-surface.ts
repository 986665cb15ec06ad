import { request } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RpcSpec } from '@engram/contracts';

/**
 * What a user can reach of a running Engram, enumerated once for every suite that walks all of it
 * (the fuzzing of http-api.int-spec.ts, the cross-tenant attempts of isolation.e2e-spec.ts): every
 * HTTP route, every RPC, every MCP tool.
 */

/** An answer of the api: status, headers, and the body as JSON when it is JSON (else its text). */
export interface ApiAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface ApiCallOptions {
  /** An API key, sent as `Authorization: <scheme> <key>`. */
  readonly key?: string;
  readonly scheme?: string;
  /** A body sent as JSON. */
  readonly body?: unknown;
  /** A body sent as is (JSON content type unless headers say otherwise). */
  readonly raw?: string | Uint8Array;
  readonly headers?: Record<string, string>;
}

export type ApiCall = (method: string, path: string, options?: ApiCallOptions) => Promise<ApiAnswer>;

/** Calls the api at `base` (`http://host:port`) as a client does. */
export function apiCaller(base: string): ApiCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `${options.scheme ?? 'Bearer'} ${options.key}`;
    let body: string | Uint8Array | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await request(`${base}${path}`, { method: method as 'POST', headers, body });
    const text = await res.body.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.statusCode, headers: res.headers, json };
  };
}

/** A route of the api that acts on a tenant's memory: its method, its path (`{param}`s as is) and its body's fields. */
export interface ApiRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly fields: readonly string[];
}

/** What the spec reads of the OpenAPI document. */
export interface OpenApiDocument {
  readonly paths: Record<
    string,
    { post?: { requestBody: { content: Record<string, { schema: { $ref: string } }> } }; get?: object }
  >;
  readonly components: { readonly schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/** What mem0's clients send to the routes that take a body. */
const MEM0_FIELDS = ['messages', 'query', 'filters', 'user_id', 'agent_id', 'run_id', 'metadata'];

/** mem0's routes (not in the OpenAPI document): what its clients call under /mem0. */
export const MEM0_ROUTES: readonly ApiRoute[] = [
  { method: 'POST', path: '/mem0/v3/memories/add', fields: MEM0_FIELDS },
  { method: 'POST', path: '/mem0/v3/memories', fields: MEM0_FIELDS },
  { method: 'POST', path: '/mem0/v3/memories/search', fields: MEM0_FIELDS },
  { method: 'GET', path: '/mem0/v1/memories/{id}', fields: [] },
  { method: 'PUT', path: '/mem0/v1/memories/{id}', fields: ['text'] },
  { method: 'DELETE', path: '/mem0/v1/memories/{id}', fields: [] },
  { method: 'GET', path: '/mem0/v1/memories/{id}/history', fields: [] },
  { method: 'DELETE', path: '/mem0/v1/memories', fields: [] },
  { method: 'GET', path: '/mem0/v1/entities', fields: [] },
  { method: 'GET', path: '/mem0/v1/ping', fields: [] },
  { method: 'DELETE', path: '/mem0/v1/entities/{type}/{name}', fields: [] },
];

/** Every route of the api behind a key: the OpenAPI document's (each RPC, turns, health), then mem0's. */
export function apiRoutes(doc: OpenApiDocument): ApiRoute[] {
  const documented = Object.entries(doc.paths).flatMap(([path, item]): ApiRoute[] => {
    const routes: ApiRoute[] = item.get ? [{ method: 'GET', path, fields: [] }] : [];
    if (!item.post) return routes;
    const ref = item.post.requestBody.content['application/json']!.schema.$ref;
    const schema = doc.components.schemas[ref.split('/').pop()!]!;
    return [...routes, { method: 'POST', path, fields: Object.keys(schema.properties ?? {}) }];
  });
  return [...documented, ...MEM0_ROUTES];
}

/** The JSON names of an RPC request's fields. */
export function rpcFields(spec: RpcSpec): string[] {
  return spec.request.fields.map((field) => field.jsonName);
}

/** An MCP client of the api's streamable HTTP endpoint, with an API key, as an agent. */
export async function connectMcp(base: string, key: string, agent: string): Promise<Client> {
  const client = new Client({ name: 'engram-spec', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}`, 'x-engram-agent': agent } },
    }),
  );
  return client;
}
