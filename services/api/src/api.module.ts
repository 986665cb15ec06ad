import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { serviceImports } from '@engram/messaging';
import { API_CONFIG, type ApiConfig } from './api.config';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeyVerifier } from './auth/api-key.verifier';
import { ProblemFilter } from './http/problem.filter';
import { OpenApiController } from './openapi/openapi.controller';
import { RpcController } from './rpc/rpc.controller';
import { RpcForwarder } from './rpc/rpc-forwarder';
import { TurnsController } from './turns/turns.controller';
import { TurnPublisher } from './turns/turn-publisher';
import { Mem0Controller } from './mem0/mem0.controller';
import { McpController } from './mcp/mcp.controller';
import { SystemHealthController } from './health/system-health.controller';
import { SystemHealth } from './health/system-health';
import { DashboardController } from './dashboard/dashboard.controller';
import { Mem0Memories } from './mem0/mem0-memories';
import { GertyClient } from '@engram/gerty-client';

@Module({})
export class ApiModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: ApiModule,
      // NATS for RPCs and turn publishes (main.ts starts no transport: the api consumes nothing);
      // Postgres for API keys only.
      imports: serviceImports('api', config),
      controllers: [
        TurnsController,
        RpcController,
        OpenApiController,
        Mem0Controller,
        McpController,
        SystemHealthController,
        // Last: the page answers GET paths no route above takes.
        DashboardController,
      ],
      providers: [
        { provide: API_CONFIG, useValue: config },
        { provide: APP_FILTER, useClass: ProblemFilter },
        ApiKeyVerifier,
        ApiKeyGuard,
        RpcForwarder,
        TurnPublisher,
        Mem0Memories,
        GertyClient,
        SystemHealth,
      ],
    };
  }
}
