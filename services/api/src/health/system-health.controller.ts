import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { SystemHealth } from './system-health';

/** `GET /v1/health`: every service's replicas, the queues and the last hour's activity (SystemHealth). */
@Controller('v1/health')
@UseGuards(ApiKeyGuard)
export class SystemHealthController {
  constructor(private readonly health: SystemHealth) {}

  @Get()
  async report(@Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    void reply.header('content-type', 'application/json');
    return Buffer.from(await this.health.report());
  }
}
