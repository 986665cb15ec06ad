import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FactCategory, FactLifetime } from '@engram/memory-core';

@Entity('facts')
export class FactEntity {
  @PrimaryColumn({ type: 'bigint', insert: false, update: false }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) agent!: string;
  @Column({ type: 'text' }) content!: string;
  @Column({ type: 'text' }) category!: FactCategory;
  @Column({ type: 'text' }) lifetime!: FactLifetime;
  @Column({ type: 'smallint' }) importance!: number;
  @Column({ type: 'text' }) origin!: 'tag' | 'extracted' | 'saved';
  @Column({ name: 'origin_key', type: 'text' }) originKey!: string;
  @Column({ name: 'conversation_id', type: 'bigint', nullable: true }) conversationId!: string | null;
  @Column({ name: 'source_message_ids', type: 'bigint', array: true }) sourceMessageIds!: string[];
  @Column({ name: 'valid_from', type: 'timestamptz' }) validFrom!: Date;
  @Column({ name: 'valid_to', type: 'timestamptz', nullable: true }) validTo!: Date | null;
  /** Why memory_forget closed it (null: open, superseded, or no reason given). */
  @Column({ name: 'forget_reason', type: 'text', nullable: true }) forgetReason!: string | null;
  @Column({ name: 'superseded_by', type: 'bigint', nullable: true }) supersededBy!: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
