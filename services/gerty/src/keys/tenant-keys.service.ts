import { Inject, Injectable } from '@nestjs/common';
import { RpcError } from '@engram/messaging';
import { GERTY_CONFIG, type GertyConfig } from '../gerty.config';
import type { ModelDefinition } from '../models/model-catalog';
import { SecretBox } from './secret-box';
import { TenantKeysRepository } from './tenant-keys.repository';

const nameOf = (model: string) => `model:${model}`;

/**
 * Tenants bring their own keys for remote models: passed with a request, or stored
 * (sealed with ENGRAM_SECRET_KEY). A key is never logged or returned.
 */
@Injectable()
export class TenantKeysService {
  private readonly box?: SecretBox;

  constructor(
    private readonly keys: TenantKeysRepository,
    @Inject(GERTY_CONFIG) config: GertyConfig,
  ) {
    if (config.ENGRAM_SECRET_KEY) this.box = new SecretBox(Buffer.from(config.ENGRAM_SECRET_KEY, 'base64'));
  }

  async store(tenantId: string, model: ModelDefinition, apiKey: string): Promise<void> {
    if (model.provider === 'builtin') throw RpcError.invalidArgument(`model ${model.name} needs no key`);
    if (!this.box)
      throw RpcError.failedPrecondition('this Engram cannot store keys: ENGRAM_SECRET_KEY is not set');
    const context = `${tenantId}/${nameOf(model.name)}`;
    await this.keys.store(
      tenantId,
      nameOf(model.name),
      apiKey ? this.box.seal(apiKey, context) : Buffer.alloc(0),
    );
  }

  /** The key for a call: the request's own, else the tenant's stored one, else the operator's. */
  async keyFor(model: ModelDefinition, tenantId: string, requestKey: string): Promise<string | undefined> {
    if (model.provider === 'builtin') return undefined;
    if (requestKey) return requestKey;
    if (tenantId && this.box) {
      const sealed = await this.keys.find(tenantId, nameOf(model.name));
      if (sealed) return this.box.open(sealed, `${tenantId}/${nameOf(model.name)}`);
    }
    return model.apiKey;
  }
}
