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
import { AgentProfileRepository, type StoredAgentProfile } from './agent-profile.repository';
import { PutAgentProfileUseCase } from './put-agent-profile.use-case';

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

/** mem.rpc.agents.put.{tenant} and mem.rpc.agents.get.{tenant}: an agent's profile. */
@Controller()
export class AgentProfileHandler {
  constructor(
    private readonly putProfile: PutAgentProfileUseCase,
    private readonly profiles: AgentProfileRepository,
  ) {}

  @HandleRpc(Rpcs.agentsPut)
  async put(request: PutAgentRequest, ctx: RpcCallContext): Promise<AgentProfileInit> {
    return asMessage(await this.putProfile.put(ctx.tenantId, request));
  }

  @HandleRpc(Rpcs.agentsGet)
  async get(request: GetAgentRequest, ctx: RpcCallContext): Promise<AgentProfileInit> {
    const profile = await this.profiles.get(ctx.tenantId, request.agent);
    if (!profile)
      throw RpcError.notFound(`agent "${request.agent}" has no profile`, { agent: request.agent });
    return asMessage(profile);
  }
}
