import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type MessageInitShape,
  type PutSkillsRequest,
  type PutSkillsResponseSchema,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { PutSkillsUseCase } from './put-skills.use-case';

/** mem.rpc.skills.put.{tenant}: an agent's skills, from markdown files with YAML front matter. */
@Controller()
export class SkillsHandler {
  constructor(private readonly putSkills: PutSkillsUseCase) {}

  @HandleRpc(Rpcs.skillsPut)
  put(
    request: PutSkillsRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PutSkillsResponseSchema>> {
    return this.putSkills.put(ctx.tenantId, request);
  }
}
