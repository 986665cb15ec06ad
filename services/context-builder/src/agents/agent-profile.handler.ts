import { Controller } from '@nestjs/common';
import {
  Rpcs,
  timestampFromDate,
  type AgentProfileSchema,
  type GetAgentRequest,
  type MessageInitShape,
  type PutAgentRequest,
} from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { profileToStore } from './agent-profile';
import { AgentProfileRepository, type StoredAgentProfile } from './agent-profile.repository';

type AgentProfileInit = MessageInitShape<typeof AgentProfileSchema>;

const asMessage = (p: StoredAgentProfile): AgentProfileInit => ({
  agent: p.agent,
  ...(p.name !== null && { name: p.name }),
  ...(p.personality !== null && { personality: p.personality }),
  ...(p.job !== null && { job: p.job }),
  ...(p.userName !== null && { userName: p.userName }),
  tools: p.tools,
  sceneMemory: p.sceneMemory,
  ...(p.model !== null && { model: p.model }),
  settings: p.settings,
  createdAt: timestampFromDate(p.createdAt),
  updatedAt: timestampFromDate(p.updatedAt),
});

/** mem.rpc.agent.put.{tenant} and mem.rpc.agent.get.{tenant}: an agent's profile. */
@Controller()
export class AgentProfileHandler {
  constructor(private readonly profiles: AgentProfileRepository) {}

  @HandleRpc(Rpcs.agentPut)
  async put(request: PutAgentRequest, ctx: RpcCallContext): Promise<AgentProfileInit> {
    return asMessage(await this.profiles.put(ctx.tenantId, profileToStore(request)));
  }

  @HandleRpc(Rpcs.agentGet)
  async get(request: GetAgentRequest, ctx: RpcCallContext): Promise<AgentProfileInit> {
    const profile = await this.profiles.get(ctx.tenantId, request.agent);
    if (!profile)
      throw RpcError.notFound(`agent "${request.agent}" has no profile`, { agent: request.agent });
    return asMessage(profile);
  }
}
