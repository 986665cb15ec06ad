import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Key/value state an agent keeps ([STATE:key] … [/STATE]); the latest statement wins. */
@Entity('state')
export class StateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ type: 'text' }) agent!: string;
  @PrimaryColumn({ type: 'text' }) key!: string;
  @Column({ type: 'text' }) value!: string;
  @Column({ name: 'source_message_id', type: 'bigint', nullable: true }) sourceMessageId!: string | null;
  @Column({ name: 'stated_at', type: 'timestamptz' }) statedAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
