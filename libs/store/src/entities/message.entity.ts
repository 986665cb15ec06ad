import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The immutable transcript (a trigger refuses changes to what was said). */
@Entity('messages')
export class MessageEntity {
  @PrimaryColumn({ type: 'bigint', insert: false, update: false }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'conversation_id', type: 'bigint' }) conversationId!: string;
  @Column({ type: 'text' }) agent!: string;
  @Column({ name: 'turn_id', type: 'text' }) turnId!: string;
  @Column({ type: 'integer' }) position!: number;
  @Column({ name: 'stream_seq', type: 'bigint' }) streamSeq!: string;
  @Column({ type: 'text' }) role!: 'user' | 'assistant' | 'system' | 'tool';
  @Column({ type: 'text', nullable: true }) author!: string | null;
  /** What users see (memory tags removed). */
  @Column({ type: 'text' }) content!: string;
  /** As published, when it differs from content. */
  @Column({ name: 'raw_content', type: 'text', nullable: true }) rawContent!: string | null;
  @Column({ name: 'content_synthesised', type: 'boolean' }) contentSynthesised!: boolean;
  @Column({ name: 'tool_name', type: 'text', nullable: true }) toolName!: string | null;
  @Column({ name: 'tool_call_id', type: 'text', nullable: true }) toolCallId!: string | null;
  @Column({ name: 'tool_args', type: 'jsonb', nullable: true }) toolArgs!: unknown;
  @Column({ name: 'tool_result', type: 'jsonb', nullable: true }) toolResult!: unknown;
  @Column({ type: 'jsonb' }) metadata!: Record<string, unknown>;
  @Column({ name: 'token_estimate', type: 'integer' }) tokenEstimate!: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'ingested_at', type: 'timestamptz' }) ingestedAt!: Date;
  @Column({ name: 'compacted_at', type: 'timestamptz', nullable: true }) compactedAt!: Date | null;
}
