import { All, Controller, Headers, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isValidToken } from '@engram/contracts';
import { handleMcpHttpRequest } from '@engram/mcp';
import { RpcClient } from '@engram/messaging';
import type { ApiPrincipal } from '@engram/store';
import { ApiKeyGuard, Principal } from '../auth/api-key.guard';
import { ApiProblem } from '../http/problem';

/**
 * `/mcp`: the memory MCP server over streamable HTTP (stateless: every POST is a whole exchange).
 * The key decides the tenant; the agent whose memory it serves is the `X-Engram-Agent` header or
 * the `agent` query parameter.
 */
@Controller('mcp')
@UseGuards(ApiKeyGuard)
export class McpController {
  constructor(private readonly rpc: RpcClient) {}

  @All()
  async serve(
    @Principal() principal: ApiPrincipal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Headers('x-engram-agent') agentHeader: string | undefined,
    @Query('agent') agentQuery: string | undefined,
  ): Promise<void> {
    const agent = agentHeader ?? agentQuery ?? '';
    if (!isValidToken(agent))
      throw new ApiProblem('INVALID_ARGUMENT', 'name the agent whose memory to serve', {}, [
        {
          field: 'agent',
          detail: 'send X-Engram-Agent: <agent> (or ?agent=<agent>): 1-64 letters, digits, "_" or "-"',
        },
      ]);
    // The SDK's transport writes the response itself.
    reply.hijack();
    await handleMcpHttpRequest(
      {
        call: (spec, body, options) => this.rpc.call(spec, body, options),
        tenant: principal.tenantId,
        agent,
      },
      request.raw,
      reply.raw,
      request.body,
    );
  }
}
