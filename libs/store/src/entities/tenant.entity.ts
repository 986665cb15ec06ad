import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('tenants')
export class TenantEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** Off: nothing is derived from this tenant's transcript (facts, state, summaries, scenes). */
  @Column({ name: 'memory_enabled', type: 'boolean', default: true })
  memoryEnabled!: boolean;

  @Column({ type: 'jsonb', default: {} })
  settings!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
