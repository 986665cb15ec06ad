import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiPrincipal } from '@engram/store';
import { ApiKeyGuard, Principal } from '../auth/api-key.guard';
import { ApiProblem } from '../http/problem';
import { RpcForwarder } from './rpc-forwarder';
import { routeAt } from './rpc-routes';

/** `POST /v1/<rpc>`: every memory RPC, its JSON in and out, for the key's tenant. */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class RpcController {
  constructor(private readonly forwarder: RpcForwarder) {}

  @Post('*')
  @HttpCode(200)
  async call(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Principal() principal: ApiPrincipal,
    @Body() body: unknown,
  ): Promise<Buffer> {
    const route = routeAt(request.url);
    if (!route)
      throw new ApiProblem('NOT_FOUND', `no route POST ${request.url.split('?')[0]} (see /openapi.json)`);
    void reply.header('content-type', 'application/json');
    return this.forwarder.forward(route.spec, body, principal);
  }
}
