import { Controller } from '@nestjs/common';
import { Rpcs, type GetTenantSettingsRequest, type SetTenantSettingsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { TenantSettingsRepository } from './tenant-settings.repository';
import { UpdateTenantSettingsUseCase } from './update-tenant-settings.use-case';

/** mem.rpc.tenant.settings.{get,set}.{tenant}: the per-tenant memoryEnabled switch. */
@Controller()
export class TenantSettingsHandler {
  constructor(
    private readonly settings: TenantSettingsRepository,
    private readonly updateSettings: UpdateTenantSettingsUseCase,
  ) {}

  @HandleRpc(Rpcs.tenantSettingsGet)
  get(_request: GetTenantSettingsRequest, ctx: RpcCallContext) {
    return this.settings.get(ctx.tenantId);
  }

  @HandleRpc(Rpcs.tenantSettingsUpdate)
  set(request: SetTenantSettingsRequest, ctx: RpcCallContext) {
    return this.updateSettings.update(ctx.tenantId, request);
  }
}
