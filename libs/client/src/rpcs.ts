import { Rpcs as CurrentRpcs } from '@engram/contracts';

/**
 * Every RPC's spec for `EngramClient.call`, and, deprecated, the names RPCs had before the RPC
 * grammar renamed them (CONTRIBUTING.md): code written against a former name keeps calling the
 * same RPC, on its current subject.
 */
export const Rpcs = {
  ...CurrentRpcs,
  /** @deprecated Rpcs.expand (mem.rpc.expand) */
  recall: CurrentRpcs.expand,
  /** @deprecated Rpcs.statsGet (mem.rpc.stats.get) */
  stats: CurrentRpcs.statsGet,
  /** @deprecated Rpcs.summariesList (mem.rpc.summaries.list) */
  summariesTree: CurrentRpcs.summariesList,
  /** @deprecated Rpcs.agentsPut (mem.rpc.agents.put) */
  agentPut: CurrentRpcs.agentsPut,
  /** @deprecated Rpcs.agentsGet (mem.rpc.agents.get) */
  agentGet: CurrentRpcs.agentsGet,
  /** @deprecated Rpcs.skillsPut (mem.rpc.skills.put) */
  skillPut: CurrentRpcs.skillsPut,
  /** @deprecated Rpcs.tenantSettingsUpdate (mem.rpc.tenant.settings.update) */
  tenantSettingsSet: CurrentRpcs.tenantSettingsUpdate,
  /** @deprecated Rpcs.beingScenesAdd (mem.rpc.being.scenes.add) */
  beingSceneAdd: CurrentRpcs.beingScenesAdd,
  /** @deprecated Rpcs.beingNotesAdd (mem.rpc.being.notes.add) */
  beingNoteAdd: CurrentRpcs.beingNotesAdd,
  /** @deprecated Rpcs.beingRulesPut (mem.rpc.being.rules.put) */
  beingRulePut: CurrentRpcs.beingRulesPut,
  /** @deprecated Rpcs.beingRelationshipsPut (mem.rpc.being.relationships.put) */
  beingRelationshipPut: CurrentRpcs.beingRelationshipsPut,
  /** @deprecated Rpcs.beingPreferencesPut (mem.rpc.being.preferences.put) */
  beingPreferencePut: CurrentRpcs.beingPreferencesPut,
  /** @deprecated Rpcs.beingNodesPin (mem.rpc.being.nodes.pin) */
  beingNodePin: CurrentRpcs.beingNodesPin,
  /** @deprecated Rpcs.beingClustersRecall (mem.rpc.being.clusters.recall) */
  beingRecallMemory: CurrentRpcs.beingClustersRecall,
  /** @deprecated Rpcs.beingNodesSearch (mem.rpc.being.nodes.search) */
  beingSearchMemory: CurrentRpcs.beingNodesSearch,
  /** @deprecated Rpcs.beingNodesHistoryGet (mem.rpc.being.nodes.history.get) */
  beingNodeHistory: CurrentRpcs.beingNodesHistoryGet,
  /** @deprecated Rpcs.beingJournalGet (mem.rpc.being.journal.get) */
  beingJournal: CurrentRpcs.beingJournalGet,
  /** @deprecated Rpcs.gertyModelsList (gerty.rpc.models.list) */
  gertyModels: CurrentRpcs.gertyModelsList,
  /** @deprecated Rpcs.gertyKeysPut (gerty.rpc.keys.put) */
  gertySetTenantKey: CurrentRpcs.gertyKeysPut,
} as const;
