/** What the store holds for one prompt, already read; the assembly only decides. */

export interface AgentProfileInput {
  readonly agent: string;
  readonly name: string | null;
  readonly personality: string | null;
  readonly job: string | null;
  readonly userName: string | null;
  readonly tools: readonly string[];
  readonly sceneMemory: boolean;
}

export type WorkspaceKind = 'soul' | 'identity' | 'user' | 'agents' | 'tools' | 'memory' | 'daily';

export interface WorkspaceDocumentInput {
  readonly name: string;
  readonly kind: WorkspaceKind;
  /** YYYY-MM-DD, for daily notes. */
  readonly day: string | null;
  readonly content: string;
}

export interface StickyFactInput {
  readonly id: string;
  readonly content: string;
  readonly importance: number;
  readonly validFrom: Date;
}

/** A fact of the agent that is not sticky (layer 4 shows the newest beside the hits). */
export interface RecentFactInput {
  readonly id: string;
  readonly content: string;
  readonly validFrom: Date;
}

/** A retrieval hit, in retrieval's order; ref is "message:12", "summary:3", "fact:6". */
export interface MemoryHitInput {
  readonly ref: string;
  readonly content: string;
  readonly createdAt: Date | null;
}

export interface SkillInput {
  readonly name: string;
  readonly description: string | null;
  readonly keywords: readonly string[];
  readonly patterns: readonly string[];
  readonly body: string;
}

export interface RecentMessageInput {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly content: string;
  readonly toolName: string | null;
  readonly createdAt: Date;
}

export interface CompactionInput {
  readonly id: string;
  readonly content: string;
  readonly earliestAt: Date | null;
  readonly latestAt: Date | null;
}

/** The being's soul, as stored (`souls`); empty fields are left out of the prompt. */
export interface SoulInput {
  readonly personality: string;
  readonly voice: string;
  readonly values: readonly string[];
  readonly backstory: string;
  readonly innerWorld: string;
  readonly examples: readonly string[];
}

/** A think note of the set in force. */
export interface ThinkNoteInput {
  readonly id: string;
  readonly content: string;
}

/** An enabled partner rule. */
export interface PartnerRuleInput {
  readonly id: string;
  readonly rule: string;
}

export interface PreferenceInput {
  readonly key: string;
  readonly value: string;
}

export interface RelationshipInput {
  readonly person: string;
  readonly relation: string;
  readonly notes: string;
}

/** One of the being's clusters: a root (its own parent) or a sub-cluster. */
export interface ClusterInput {
  readonly id: string;
  readonly name: string;
  /** 'business' or 'private' on the two roots; null on sub-clusters. */
  readonly root: 'business' | 'private' | null;
  readonly parentId: string;
  /** Active nodes directly in this cluster (not in its sub-clusters). */
  readonly activeNodes: number;
}

/** A note of the snapshot: an unread note, TODO or reminder, or a piece of knowledge. */
export interface BeingNoteInput {
  readonly id: string;
  readonly kind: 'note' | 'todo' | 'reminder' | 'knowledge';
  readonly content: string;
  readonly dueAt: Date | null;
}

export interface DiaryEntryInput {
  /** YYYY-MM-DD. */
  readonly day: string;
  readonly content: string;
}

/** A scene as stored: `action` always; the rest as the being wrote it (or absent, for nodes kept from migration 010). */
export interface StoredSceneInput {
  readonly action: string;
  readonly actors?: readonly string[];
  readonly when?: ReadonlyArray<string | { readonly date: string; readonly action?: string }>;
  readonly setting?: string;
  readonly dialogue?: readonly string[];
  readonly sensory?: readonly string[];
  readonly feeling?: string;
}

export interface SceneNodeInput {
  readonly id: string;
  readonly scene: StoredSceneInput;
  /** The node's feeling (it may differ from the scene's own). */
  readonly feeling: string | null;
}

/** Being memory, for scene-memory agents: what its prompt shows of it. */
export interface SceneInput {
  /** Null when the being has no soul row: SOUL.md stands in. */
  readonly soul: SoulInput | null;
  /** The set in force, oldest first. */
  readonly thinkNotes: readonly ThinkNoteInput[];
  /** Enabled rules only, oldest first. */
  readonly partnerRules: readonly PartnerRuleInput[];
  readonly preferences: readonly PreferenceInput[];
  readonly relationships: readonly RelationshipInput[];
  /** Every cluster of the being, for the map. */
  readonly clusters: readonly ClusterInput[];
  /** Unread notes, TODOs and reminders, oldest first. */
  readonly unreadNotes: readonly BeingNoteInput[];
  readonly knowledge: readonly BeingNoteInput[];
  /** The last 7 days, oldest first. */
  readonly diary: readonly DiaryEntryInput[];
  /** The most recently activated first (never dead ones). */
  readonly nodes: readonly SceneNodeInput[];
}

/** What a being recalled of the current message: the fragments in their memory tag, and the scenes they came from. */
export interface RecalledInput {
  readonly text: string;
  readonly nodeIds: readonly string[];
}

export interface ContextInputs {
  /** The moment the prompt is for: today's date and today's notes are its. */
  readonly asOf: Date;
  readonly currentMessage: string;
  readonly agent: AgentProfileInput;
  readonly workspace: readonly WorkspaceDocumentInput[];
  readonly stickyFacts: readonly StickyFactInput[];
  readonly memory: readonly MemoryHitInput[];
  /** The agent's facts in force that are not sticky, newest first. */
  readonly recentFacts: readonly RecentFactInput[];
  readonly skills: readonly SkillInput[];
  /** Uncompacted messages of the conversation, oldest first. */
  readonly recent: readonly RecentMessageInput[];
  readonly compaction: CompactionInput | null;
  readonly scene: SceneInput | null;
  /** A being's recall of the current message (none: not asked, or nothing came back). */
  readonly recalled?: RecalledInput | null;
}
