import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ApiPrincipal } from '@engram/store';
import { ApiKeyGuard, AuthSchemes, Principal } from '../auth/api-key.guard';
import { ApiProblem } from '../http/problem';
import { Mem0Memories } from './mem0-memories';
import { addBody, entityQuery, listBody, pageQuery, parsed, searchBody, updateBody } from './mem0-requests';
import { entityAgent } from '@engram/memory-core';
import { mem0Scope } from './mem0-scope';

/**
 * mem0's platform API under /mem0, for applications built on its clients (MemoryClient with
 * `host` set to …/mem0 and an Engram key). Routes are the ones those clients call; every answer
 * is JSON with snake_case keys, also on DELETE.
 */
@Controller('mem0')
@UseGuards(ApiKeyGuard)
@AuthSchemes('Token', 'Bearer')
export class Mem0Controller {
  constructor(private readonly memories: Mem0Memories) {}

  @Get('v1/ping')
  ping(@Principal() principal: ApiPrincipal) {
    return {
      status: 'ok',
      message: 'Engram (mem0-compatible API)',
      org_id: principal.tenantId,
      project_id: principal.tenantId,
      user_email: null,
    };
  }

  @Post('v3/memories/add')
  @HttpCode(200)
  add(@Principal() principal: ApiPrincipal, @Body() body: unknown) {
    return this.memories.add(principal.tenantId, parsed(addBody, body));
  }

  @Post('v3/memories')
  @HttpCode(200)
  list(
    @Principal() principal: ApiPrincipal,
    @Body() body: unknown,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
  ) {
    const { filters, categories } = parsed(listBody, body);
    const { page, page_size } = parsed(pageQuery, query);
    const scope = mem0Scope(
      categories ? { AND: [filters ?? {}, { categories: { in: categories } }] } : filters,
      { requireEntity: true },
    );
    return this.memories.list(principal.tenantId, scope, page, page_size, request.url.split('?')[0]!);
  }

  @Post('v3/memories/search')
  @HttpCode(200)
  search(@Principal() principal: ApiPrincipal, @Body() body: unknown) {
    const request = parsed(searchBody, body);
    return this.memories.search(
      principal.tenantId,
      // mem0's older search took metadata beside the filters: it narrows the same way.
      mem0Scope(
        request.metadata ? { AND: [request.filters ?? {}, { metadata: request.metadata }] } : request.filters,
        { requireEntity: true },
      ),
      request,
    );
  }

  @Get('v1/memories/:id')
  get(@Principal() principal: ApiPrincipal, @Param('id') id: string) {
    return this.memories.get(principal.tenantId, id);
  }

  @Put('v1/memories/:id')
  update(@Principal() principal: ApiPrincipal, @Param('id') id: string, @Body() body: unknown) {
    return this.memories.update(principal.tenantId, id, parsed(updateBody, body));
  }

  @Delete('v1/memories/:id')
  delete(@Principal() principal: ApiPrincipal, @Param('id') id: string) {
    return this.memories.delete(principal.tenantId, id);
  }

  @Get('v1/memories/:id/history')
  history(@Principal() principal: ApiPrincipal, @Param('id') id: string) {
    return this.memories.history(principal.tenantId, id);
  }

  @Delete('v1/memories')
  async deleteAll(@Principal() principal: ApiPrincipal, @Query() query: unknown) {
    const { user_id, agent_id, run_id } = parsed(entityQuery, query);
    const scope = mem0Scope(
      { ...(user_id && { user_id }), ...(agent_id && { agent_id }), ...(run_id && { run_id }) },
      { requireEntity: true },
    );
    const deleted = await this.memories.deleteAll(principal.tenantId, scope);
    return { message: 'Memories deleted successfully!', deleted };
  }

  @Get('v1/entities')
  async entities(@Principal() principal: ApiPrincipal, @Query() query: unknown) {
    const { page, page_size } = parsed(pageQuery, query);
    const all = await this.memories.entities(principal.tenantId);
    const results = all.slice((page - 1) * page_size, page * page_size);
    return {
      count: all.length,
      next: page * page_size < all.length ? page + 1 : null,
      previous: page > 1 ? page - 1 : null,
      results,
    };
  }

  @Delete(['v1/entities/:type/:name', 'v2/entities/:type/:name'])
  async deleteEntity(
    @Principal() principal: ApiPrincipal,
    @Param('type') type: string,
    @Param('name') name: string,
  ) {
    const key = { user: 'user_id', agent: 'agent_id', run: 'run_id' }[type];
    if (!key)
      throw new ApiProblem('INVALID_ARGUMENT', 'invalid request', {}, [
        { field: 'type', detail: 'must be user, agent or run' },
      ]);
    const deleted = await this.memories.deleteAll(
      principal.tenantId,
      mem0Scope({ [key]: name }, { requireEntity: true }),
    );
    return {
      message: 'Entity deleted successfully.',
      entity: { type, name, engram_agent: key === 'run_id' ? null : entityAgent(name) },
      deleted,
    };
  }
}
