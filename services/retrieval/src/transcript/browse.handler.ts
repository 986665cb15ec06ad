import { Controller } from '@nestjs/common';
import { Rpcs, type BrowseRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { BrowseTranscriptUseCase } from './browse-transcript.use-case';

/** mem.rpc.browse.{tenant} */
@Controller()
export class BrowseHandler {
  constructor(private readonly browseTranscript: BrowseTranscriptUseCase) {}

  @HandleRpc(Rpcs.browse)
  browse(request: BrowseRequest, ctx: RpcCallContext) {
    return this.browseTranscript.browse(ctx.tenantId, request);
  }
}
