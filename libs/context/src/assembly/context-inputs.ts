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

export interface SceneNoteInput {
  readonly id: string;
  readonly content: string;
  /** YYYY-MM-DD, for diary entries. */
  readonly day: string | null;
}

export interface SceneNodeInput {
  readonly id: string;
  readonly title: string | null;
  readonly content: string;
}

/** Scene memory, for agents that have it: whatever of it the store holds. */
export interface SceneInput {
  readonly thinkNotes: readonly SceneNoteInput[];
  readonly partnerRules: readonly SceneNoteInput[];
  readonly preferences: readonly SceneNoteInput[];
  readonly relationships: readonly SceneNoteInput[];
  readonly map: readonly SceneNoteInput[];
  readonly unreadNotes: readonly SceneNoteInput[];
  readonly knowledge: readonly SceneNoteInput[];
  /** The last 7 days, oldest first. */
  readonly diary: readonly SceneNoteInput[];
  /** The most recently activated first. */
  readonly nodes: readonly SceneNodeInput[];
}

export interface ContextInputs {
  readonly now: Date;
  readonly currentMessage: string;
  readonly agent: AgentProfileInput;
  readonly workspace: readonly WorkspaceDocumentInput[];
  readonly stickyFacts: readonly StickyFactInput[];
  readonly memory: readonly MemoryHitInput[];
  readonly skills: readonly SkillInput[];
  /** Uncompacted messages of the conversation, oldest first. */
  readonly recent: readonly RecentMessageInput[];
  readonly compaction: CompactionInput | null;
  readonly scene: SceneInput | null;
}
