import { Injectable } from '@nestjs/common';
import type { MessageInitShape, SetTenantKeyRequest, SetTenantKeyResponseSchema } from '@engram/contracts';
import { ModelRouter } from '../models/model-router';
import { TenantKeysService } from './tenant-keys.service';

/** gerty.rpc.keys.put: the tenant's own key for a remote model, stored sealed (an empty key removes it). */
@Injectable()
export class PutTenantKeyUseCase {
  constructor(
    private readonly router: ModelRouter,
    private readonly keys: TenantKeysService,
  ) {}

  async put(
    tenantId: string,
    request: SetTenantKeyRequest,
  ): Promise<MessageInitShape<typeof SetTenantKeyResponseSchema>> {
    const { definition } = this.router.named(request.model);
    await this.keys.store(tenantId, definition, request.apiKey);
    return { model: definition.name, stored: request.apiKey !== '' };
  }
}
