import { Controller } from '@nestjs/common';
import { Rpcs, type GetTenantSettingsRequest, type SetTenantSettingsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { TenantSettingsRepository } from './tenant-settings.repository';

/** mem.rpc.tenant.settings.{get,set}.{tenant}: the per-tenant memoryEnabled switch. */
@Controller()
export class TenantSettingsHandler {
  constructor(private readonly settings: TenantSettingsRepository) {}

  @HandleRpc(Rpcs.tenantSettingsGet)
  get(_request: GetTenantSettingsRequest, ctx: RpcCallContext) {
    return this.settings.get(ctx.tenantId);
  }

  @HandleRpc(Rpcs.tenantSettingsSet)
  set(request: SetTenantSettingsRequest, ctx: RpcCallContext) {
    return this.settings.update(
      ctx.tenantId,
      request.memoryEnabled === undefined ? {} : { memoryEnabled: request.memoryEnabled },
    );
  }
}
