import { Controller } from '@nestjs/common';
import { Rpcs, type ContextBuildRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { BuildContextUseCase } from './build-context.use-case';

/** mem.rpc.context.build.{tenant} */
@Controller()
export class ContextBuildHandler {
  constructor(private readonly buildContext: BuildContextUseCase) {}

  @HandleRpc(Rpcs.contextBuild)
  build(request: ContextBuildRequest, ctx: RpcCallContext) {
    return this.buildContext.build(ctx.tenantId, request);
  }
}
