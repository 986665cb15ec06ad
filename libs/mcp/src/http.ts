import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMemoryMcpServer } from './memory-mcp-server';
import type { MemoryMcpOptions } from './tool-scope';

/**
 * Serves one HTTP request of MCP's streamable HTTP transport, statelessly: a server and a
 * transport of its own for this request (no session id, JSON responses), closed when the
 * response is. The caller has authenticated the request and decided its tenant and agent;
 * `body` is the parsed JSON body when a framework already read it (Fastify: `reply.hijack()`,
 * then `request.raw`, `reply.raw` and `request.body`). Only POST carries messages in a
 * stateless server: any other method is answered 405.
 */
export async function handleMcpHttpRequest(
  options: MemoryMcpOptions,
  req: IncomingMessage,
  res: ServerResponse,
  body?: unknown,
): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' }).end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, POST only' },
        id: null,
      }),
    );
    return;
  }
  const server = createMemoryMcpServer(options);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
