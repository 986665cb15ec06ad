import { Module, type DynamicModule } from '@nestjs/common';
import { DEFAULT_RETRY_SCHEDULE } from '@engram/inference';
import { serviceImports } from '@engram/messaging';
import { CompleteUseCase } from './completion/complete.use-case';
import { EmbedTextsUseCase } from './embedding/embed-texts.use-case';
import { GERTY_CONFIG, type GertyConfig } from './gerty.config';
import { GertyHandlers } from './gerty.handlers';
import { TenantKeysRepository } from './keys/tenant-keys.repository';
import { TenantKeysService } from './keys/tenant-keys.service';
import { PutTenantKeyUseCase } from './keys/put-tenant-key.use-case';
import { ListModelsUseCase } from './models/list-models.use-case';
import { ModelRouter, OPENAI_RETRY_SCHEDULE } from './models/model-router';

@Module({})
export class GertyModule {
  static register(config: GertyConfig): DynamicModule {
    return {
      module: GertyModule,
      // Tenants' own provider keys live in the store.
      imports: serviceImports('gerty', config),
      controllers: [GertyHandlers],
      providers: [
        { provide: GERTY_CONFIG, useValue: config },
        { provide: OPENAI_RETRY_SCHEDULE, useValue: DEFAULT_RETRY_SCHEDULE },
        ModelRouter,
        EmbedTextsUseCase,
        CompleteUseCase,
        TenantKeysRepository,
        TenantKeysService,
        ListModelsUseCase,
        PutTenantKeyUseCase,
      ],
    };
  }
}
