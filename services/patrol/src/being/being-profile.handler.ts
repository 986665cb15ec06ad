import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type BeingSchema,
  type GetBeingRequest,
  type MessageInitShape,
  type PartnerRuleSchema,
  type PreferenceSchema,
  type PutPartnerRuleRequest,
  type PutPreferenceRequest,
  type PutRelationshipRequest,
  type PutSoulRequest,
  type RelationshipSchema,
  type SoulSchema,
} from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { BeingProfileRepository, type Soul } from './being-profile.repository';
import { PutPartnerRuleUseCase } from './put-partner-rule.use-case';
import { PutPreferenceUseCase } from './put-preference.use-case';
import { PutRelationshipUseCase } from './put-relationship.use-case';
import { PutSoulUseCase } from './put-soul.use-case';

type SoulInit = MessageInitShape<typeof SoulSchema>;

const toSoul = (s: Soul): SoulInit => ({
  personality: s.personality,
  voice: s.voice,
  values: s.values,
  backstory: s.backstory,
  innerWorld: s.inner_world,
  examples: s.examples,
});

/**
 * mem.rpc.being.rules.put, .relationship.put, .preference.put, .soul.put and mem.rpc.being.get
 * (each .{tenant}): who a being is and what it knows of its partner, and the state of its memory.
 */
@Controller()
export class BeingProfileHandler {
  constructor(
    private readonly partnerRules: PutPartnerRuleUseCase,
    private readonly relationships: PutRelationshipUseCase,
    private readonly preferences: PutPreferenceUseCase,
    private readonly souls: PutSoulUseCase,
    private readonly profile: BeingProfileRepository,
  ) {}

  @HandleRpc(Rpcs.beingRulesPut)
  putRule(
    request: PutPartnerRuleRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PartnerRuleSchema>> {
    return this.partnerRules.put(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.beingRelationshipsPut)
  putRelationship(
    request: PutRelationshipRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof RelationshipSchema>> {
    return this.relationships.put(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.beingPreferencesPut)
  putPreference(
    request: PutPreferenceRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PreferenceSchema>> {
    return this.preferences.put(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.beingSoulPut)
  async putSoul(request: PutSoulRequest, ctx: RpcCallContext): Promise<SoulInit> {
    return toSoul(await this.souls.put(ctx.tenantId, request));
  }

  @HandleRpc(Rpcs.beingGet)
  async get(request: GetBeingRequest, ctx: RpcCallContext): Promise<MessageInitShape<typeof BeingSchema>> {
    const being = await this.profile.get(ctx.tenantId, request.agent);
    if (!being) throw RpcError.notFound(`agent "${request.agent}" is not a being`, { agent: request.agent });
    return {
      agent: request.agent,
      soul: being.soul ? toSoul(being.soul) : {},
      rules: being.rules,
      relationships: being.relationships,
      preferences: being.preferences,
      clusters: being.clusters.map((c) => ({
        id: c.id,
        name: c.name,
        root: c.root ?? '',
        parentId: c.parentId,
        active: c.active,
        dying: c.dying,
        dead: c.dead,
      })),
      unreadNotes: being.unreadNotes,
      pendingScenes: being.pendingScenes,
    };
  }
}
