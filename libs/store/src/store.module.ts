import { Logger, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadinessRegistry } from '@engram/platform';
import { dataSourceOptions } from './data-source';
import { MIGRATIONS } from './migrations';
import { pendingMigrations } from './setup/database-setup';
import { TenantTransactions } from './tenancy/tenant-transactions';
import { OutboxStore } from './outbox/outbox.store';

export interface StoreOptions {
  readonly url: string;
  readonly poolSize: number;
  readonly service: string;
}

const RETRY_MS = 2000;

/**
 * Postgres for a service: the DataSource, tenant-scoped transactions, and a
 * readiness check. The service starts even while Postgres is unreachable (it
 * answers /health/live, reports not ready, and its consumers wait); the
 * DataSource connects as soon as Postgres answers.
 */
@Module({})
export class StoreModule implements OnModuleInit {
  private readonly logger = new Logger(StoreModule.name);
  private connected = false;
  private role = '';

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
          ...dataSourceOptions(options.url, {
            poolSize: options.poolSize,
            applicationName: `engram-${options.service}`,
          }),
          manualInitialization: true,
        }),
      ],
      providers: [TenantTransactions, OutboxStore],
      exports: [TenantTransactions, OutboxStore],
    };
  }

  async onModuleInit(): Promise<void> {
    const known = MIGRATIONS.map((m) => m.name);
    this.readiness.register({
      name: 'postgres',
      check: async () => {
        if (!this.connected) throw new Error('connecting to Postgres');
        const pending = await pendingMigrations((sql) => this.dataSource.query(sql), known);
        if (pending.length > 0)
          throw new Error(`migrations pending (${pending.join(', ')}): run engram db migrate`);
        return { database: this.dataSource.driver.database ?? '', role: this.role };
      },
    });
    // Connect now when Postgres is up, so a misconfiguration stops the start; otherwise keep trying.
    try {
      await this.connect();
    } catch (error) {
      if (error instanceof IsolationError) throw error;
      this.logger.warn(`Postgres unreachable (${(error as Error).message}); retrying every ${RETRY_MS} ms`);
      void this.connectInBackground();
    }
  }

  private async connectInBackground(): Promise<void> {
    for (;;) {
      await new Promise((r) => setTimeout(r, RETRY_MS));
      try {
        await this.connect();
        this.logger.log('connected to Postgres');
        return;
      } catch (error) {
        if (error instanceof IsolationError) {
          this.logger.fatal(error.message);
          process.exit(1);
        }
      }
    }
  }

  private async connect(): Promise<void> {
    if (!this.dataSource.isInitialized) await this.dataSource.initialize();
    const [role] = await this.dataSource.query<Array<{ rolname: string; bypass: boolean }>>(
      `SELECT rolname, rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`,
    );
    if (role?.bypass) throw new IsolationError(role.rolname);
    this.role = role?.rolname ?? '';
    this.connected = true;
  }
}

/** Refuses a role that would bypass row-level security: tenant isolation is not optional. */
class IsolationError extends Error {
  constructor(role: string) {
    super(
      `DATABASE_URL connects as "${role}", a role that bypasses row-level security; ` +
        `connect as the app role (see engram db setup) so that tenants stay isolated`,
    );
  }
}
