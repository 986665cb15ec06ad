import { Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadinessRegistry } from '@engram/platform';
import { dataSourceOptions } from './data-source';
import { MIGRATIONS } from './migrations';
import { pendingMigrations } from './setup/database-setup';
import { TenantTransactions } from './tenancy/tenant-transactions';

export interface StoreOptions {
  readonly url: string;
  readonly poolSize: number;
  readonly service: string;
}

const STORE_OPTIONS = Symbol('STORE_OPTIONS');

/** Postgres for a service: the DataSource, tenant-scoped transactions, and a readiness check. */
@Module({})
export class StoreModule implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly readiness: ReadinessRegistry,
  ) {}

  static forRoot(options: StoreOptions): DynamicModule {
    return {
      module: StoreModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(options.url, { poolSize: options.poolSize, applicationName: `engram-${options.service}` }),
          // Keep trying while Postgres starts; readiness reports it meanwhile.
          retryAttempts: Number.MAX_SAFE_INTEGER,
          retryDelay: 1000,
        }),
      ],
      providers: [{ provide: STORE_OPTIONS, useValue: options }, TenantTransactions],
      exports: [TenantTransactions],
    };
  }

  /** Refuses a role that would bypass row-level security: tenant isolation is not optional. */
  async onModuleInit(): Promise<void> {
    const [role] = await this.dataSource.query<Array<{ rolname: string; bypass: boolean }>>(
      `SELECT rolname, rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`,
    );
    if (role?.bypass) {
      throw new Error(
        `DATABASE_URL connects as "${role.rolname}", a role that bypasses row-level security; ` +
          `connect as the app role (see engram db setup) so that tenants stay isolated`,
      );
    }
    const known = MIGRATIONS.map((m) => m.name);
    this.readiness.register({
      name: 'postgres',
      check: async () => {
        const pending = await pendingMigrations((sql) => this.dataSource.query(sql), known);
        if (pending.length > 0) throw new Error(`migrations pending (${pending.join(', ')}): run engram db migrate`);
        return { database: this.dataSource.driver.database ?? '', role: role?.rolname ?? '' };
      },
    });
  }
}
