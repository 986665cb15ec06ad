import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type MessageInitShape,
  type PutSkillsRequest,
  type PutSkillsResponseSchema,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { skillsWrite } from './skill-files';
import { SkillsRepository } from './skills.repository';

/** mem.rpc.skill.put.{tenant}: an agent's skills, from markdown files with YAML front matter. */
@Controller()
export class SkillsHandler {
  constructor(private readonly skills: SkillsRepository) {}

  @HandleRpc(Rpcs.skillPut)
  async put(
    request: PutSkillsRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PutSkillsResponseSchema>> {
    const write = skillsWrite(request);
    await this.skills.put(ctx.tenantId, write.agent, write.skills);
    return { stored: write.skills.map((s) => s.name), rejected: write.rejected };
  }
}
