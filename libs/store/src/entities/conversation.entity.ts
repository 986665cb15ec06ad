import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('conversations')
export class ConversationEntity {
  /** bigint: strings in JavaScript. */
  @PrimaryColumn({ type: 'bigint', insert: false, update: false })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) agent!: string;
  @Column({ name: 'session_key', type: 'text' }) sessionKey!: string;
  @Column({ type: 'text', nullable: true }) channel!: string | null;
  @Column({ name: 'channel_id', type: 'text', nullable: true }) channelId!: string | null;
  @Column({ name: 'bot_identity', type: 'text', nullable: true }) botIdentity!: string | null;
  @Column({ type: 'text', nullable: true }) title!: string | null;
  @Column({ type: 'text', nullable: true }) model!: string | null;
  @Column({ type: 'jsonb' }) settings!: Record<string, unknown>;
  @Column({ type: 'boolean' }) active!: boolean;
  @Column({ name: 'message_count', type: 'integer' }) messageCount!: number;
  @Column({ name: 'token_estimate', type: 'bigint' }) tokenEstimate!: string;
  @Column({ name: 'first_message_at', type: 'timestamptz', nullable: true }) firstMessageAt!: Date | null;
  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true }) lastMessageAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
