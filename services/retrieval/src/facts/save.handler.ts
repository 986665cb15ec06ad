import { Controller } from '@nestjs/common';
import { Rpcs, type SaveRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { SaveFactUseCase } from './save-fact.use-case';

/** mem.rpc.save.{tenant} */
@Controller()
export class SaveHandler {
  constructor(private readonly saveFact: SaveFactUseCase) {}

  @HandleRpc(Rpcs.save)
  save(request: SaveRequest, ctx: RpcCallContext) {
    return this.saveFact.save(ctx.tenantId, request);
  }
}
