import { Injectable } from '@nestjs/common';
import type { PatrolStep } from '@engram/contracts';
import type { EntityManager, PatrolRunRow } from '@engram/store';
import type { StepCounts } from './patrol-step';

/** What one step did, as a run's report keeps it. */
export interface StepReport {
  readonly skipped: boolean;
  readonly reason?: string;
  readonly counts: StepCounts;
}

/** A run of patrol_runs, as the patrol works with it. */
export interface StoredPatrolRun {
  readonly id: string;
  readonly trigger: 'schedule' | 'demand';
  readonly stepsDone: PatrolStep[];
  readonly report: Partial<Record<PatrolStep, StepReport>>;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
}

/** A run as COLUMNS reads it; its steps and report are the patrol's own (markStepDone). */
type RunColumns = Pick<
  PatrolRunRow,
  'id' | 'trigger' | 'steps_done' | 'report' | 'started_at' | 'finished_at'
> & {
  readonly steps_done: PatrolStep[];
  readonly report: Partial<Record<PatrolStep, StepReport>>;
};

const COLUMNS = 'id::text, trigger, steps_done, report, started_at, finished_at';
const runOf = (r: RunColumns): StoredPatrolRun => ({
  id: r.id,
  trigger: r.trigger,
  stepsDone: r.steps_done,
  report: r.report,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** patrol_runs: a being's runs, each step's effect recorded in the transaction of that effect. */
@Injectable()
export class PatrolRunsRepository {
  /** The being's unfinished run (one left by a process that died), else a new one. */
  async startOrResume(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    trigger: 'schedule' | 'demand',
  ): Promise<{ run: StoredPatrolRun; resumed: boolean }> {
    const [open]: RunColumns[] = await manager.query(
      `SELECT ${COLUMNS} FROM patrol_runs WHERE agent = $1 AND finished_at IS NULL`,
      [agent],
    );
    if (open) return { run: runOf(open), resumed: true };
    const [created]: RunColumns[] = await manager.query(
      `INSERT INTO patrol_runs (tenant_id, agent, trigger) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [tenantId, agent, trigger],
    );
    await manager.query(`UPDATE beings SET last_patrol_at = $2 WHERE agent = $1`, [
      agent,
      created!.started_at,
    ]);
    return { run: runOf(created!), resumed: false };
  }

  /** Records a step as done with what it did; false when it already was (nothing recorded twice). */
  async markStepDone(
    manager: EntityManager,
    runId: string,
    step: PatrolStep,
    report: StepReport,
  ): Promise<boolean> {
    // As a SELECT, so the driver answers rows (an UPDATE answers [rows, count]).
    const rows: unknown[] = await manager.query(
      `WITH done AS (
         UPDATE patrol_runs SET steps_done = steps_done || $2::text,
                report = report || jsonb_build_object($2::text, $3::jsonb)
          WHERE id = $1 AND NOT ($2::text = ANY (steps_done)) RETURNING id)
       SELECT id FROM done`,
      [runId, step, JSON.stringify(report)],
    );
    return rows.length > 0;
  }

  /** Finishes the run; answers it as finished. */
  async finish(manager: EntityManager, runId: string): Promise<StoredPatrolRun> {
    const [row]: RunColumns[] = await manager.query(
      `WITH finished AS (UPDATE patrol_runs SET finished_at = now() WHERE id = $1 RETURNING *)
       SELECT ${COLUMNS} FROM finished`,
      [runId],
    );
    return runOf(row!);
  }
}
