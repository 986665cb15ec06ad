import { Injectable } from '@nestjs/common';
import type { MessageInitShape, PutSkillsRequest, PutSkillsResponseSchema } from '@engram/contracts';
import { ensureTenant, TenantTransactions } from '@engram/store';
import { skillsWrite } from './skill-files';
import { SkillsRepository } from './skills.repository';

/**
 * mem.rpc.skills.put: an agent's skills from markdown files with YAML front matter, stored in one
 * tenant transaction (the tenant registered first); files that are no skill are answered as
 * rejected, with why, and nothing is written when none is.
 */
@Injectable()
export class PutSkillsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly skills: SkillsRepository,
  ) {}

  async put(
    tenantId: string,
    request: PutSkillsRequest,
  ): Promise<MessageInitShape<typeof PutSkillsResponseSchema>> {
    const write = skillsWrite(request);
    if (write.skills.length > 0)
      await this.transactions.run(tenantId, async (manager) => {
        await ensureTenant(manager, tenantId);
        await this.skills.put(manager, tenantId, write.agent, write.skills);
      });
    return { stored: write.skills.map((s) => s.name), rejected: write.rejected };
  }
}
