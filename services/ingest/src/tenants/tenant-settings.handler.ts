import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { Rpcs, type SetTenantSettingsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { TenantSettingsRepository, type TenantSettingsView } from './tenant-settings.repository';

/** mem.rpc.tenant.settings.{get,set}.{tenant}: the per-tenant memoryEnabled switch. */
@Controller()
export class TenantSettingsHandler {
  constructor(private readonly settings: TenantSettingsRepository) {}

  @HandleRpc(Rpcs.tenantSettingsGet)
  get(@Ctx() ctx: RpcCallContext): Promise<TenantSettingsView> {
    return this.settings.get(ctx.tenantId);
  }

  @HandleRpc(Rpcs.tenantSettingsSet)
  set(@Payload() request: SetTenantSettingsRequest, @Ctx() ctx: RpcCallContext): Promise<TenantSettingsView> {
    return this.settings.update(
      ctx.tenantId,
      request.memoryEnabled === undefined ? {} : { memoryEnabled: request.memoryEnabled },
    );
  }
}
