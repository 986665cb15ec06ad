import { Controller } from '@nestjs/common';
import { Rpcs, type ListConversationsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListConversationsUseCase } from './list-conversations.use-case';

/** mem.rpc.conversations.list.{tenant} */
@Controller()
export class ConversationsHandler {
  constructor(private readonly listConversations: ListConversationsUseCase) {}

  @HandleRpc(Rpcs.conversationsList)
  list(request: ListConversationsRequest, ctx: RpcCallContext) {
    return this.listConversations.list(ctx.tenantId, request);
  }
}
