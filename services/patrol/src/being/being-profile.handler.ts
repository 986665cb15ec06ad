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
import { BeingProfileRepository, type SoulRow } from './being-profile.repository';

type SoulInit = MessageInitShape<typeof SoulSchema>;

const toSoul = (s: SoulRow): SoulInit => ({
  personality: s.personality,
  voice: s.voice,
  values: s.values,
  backstory: s.backstory,
  innerWorld: s.inner_world,
  examples: s.examples,
});

/**
 * mem.rpc.being.rule.put, .relationship.put, .preference.put, .soul.put and mem.rpc.being.get
 * (each .{tenant}): who a being is and what it knows of its partner, and the state of its memory.
 */
@Controller()
export class BeingProfileHandler {
  constructor(private readonly profile: BeingProfileRepository) {}

  @HandleRpc(Rpcs.beingRulePut)
  putRule(
    request: PutPartnerRuleRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PartnerRuleSchema>> {
    return this.profile.putRule(ctx.tenantId, request.agent, request.rule, request.enabled);
  }

  @HandleRpc(Rpcs.beingRelationshipPut)
  putRelationship(
    request: PutRelationshipRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof RelationshipSchema>> {
    const { person, relation, notes } = request;
    return this.profile.putRelationship(ctx.tenantId, request.agent, { person, relation, notes });
  }

  @HandleRpc(Rpcs.beingPreferencePut)
  putPreference(
    request: PutPreferenceRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PreferenceSchema>> {
    const { key, value } = request;
    return this.profile.putPreference(ctx.tenantId, request.agent, { key, value });
  }

  @HandleRpc(Rpcs.beingSoulPut)
  async putSoul(request: PutSoulRequest, ctx: RpcCallContext): Promise<SoulInit> {
    const soul = await this.profile.putSoul(ctx.tenantId, request.agent, {
      personality: request.personality,
      voice: request.voice,
      values: request.values,
      backstory: request.backstory,
      inner_world: request.innerWorld,
      examples: request.examples,
    });
    return toSoul(soul);
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
        parentId: c.parent_id,
        active: c.active,
        dying: c.dying,
        dead: c.dead,
      })),
      unreadNotes: being.unreadNotes,
      pendingScenes: being.pendingScenes,
    };
  }
}
