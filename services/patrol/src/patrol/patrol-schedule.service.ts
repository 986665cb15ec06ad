import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicTask, ShutdownBudget } from '@engram/platform';
import { TenantTransactions } from '@engram/store';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import { RunPatrolUseCase } from './run-patrol.use-case';

/** Most beings one tick starts patrols for (one after another); the rest wait for the next tick. */
const BEINGS_PER_TICK = 20;

/**
 * The schedule: every PATROL_TICK_MS the beings whose last patrol started more than
 * PATROL_EVERY_MS ago (or never) get one, longest waiting first. Several replicas may tick
 * at once: the being's lock lets one of them run it, the others skip it.
 */
@Injectable()
export class PatrolScheduleService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PatrolScheduleService.name);
  private readonly ticks: PeriodicTask<number>;

  constructor(
    private readonly patrol: RunPatrolUseCase,
    private readonly transactions: TenantTransactions,
    shutdown: ShutdownBudget,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {
    this.ticks = new PeriodicTask({
      name: 'the patrol schedule',
      run: () => this.patrolDue(),
      intervalMs: config.PATROL_TICK_MS,
      shutdown,
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.PATROL_EVERY_MS > 0) this.ticks.start();
  }

  /** A patrol in progress waits on Postgres and on Gerty over NATS; it stops at the next being. */
  async onApplicationShutdown(): Promise<void> {
    await this.ticks.stop();
  }

  /** One tick now, or the one in progress (ticks never overlap); answers how many patrols ran. */
  async tick(): Promise<number> {
    return (await this.ticks.runNow()) ?? 0;
  }

  /** Patrols the beings that are due; answers how many ran. */
  private async patrolDue(): Promise<number> {
    let ran = 0;
    try {
      const due: Array<{ tenant_id: string; agent: string }> = await this.transactions.runAcrossTenants((m) =>
        m.query(
          `SELECT tenant_id, agent FROM engram_beings_due(make_interval(secs => $1::float8 / 1000), $2)`,
          [this.config.PATROL_EVERY_MS, BEINGS_PER_TICK],
        ),
      );
      for (const being of due) {
        if (this.ticks.stopping) break;
        try {
          const outcome = await this.patrol.run({
            tenantId: being.tenant_id,
            agent: being.agent,
            trigger: 'schedule',
          });
          if (outcome) ran += 1;
        } catch (error) {
          // One being's failure (Gerty down mid-run) leaves its run to resume next time; the others go on.
          this.logger.warn(`patrol of ${being.tenant_id}/${being.agent} failed: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      this.logger.warn(`patrol schedule could not list due beings: ${(error as Error).message}`);
    }
    return ran;
  }
}
