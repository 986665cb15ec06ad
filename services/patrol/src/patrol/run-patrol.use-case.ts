import { Injectable, Logger } from '@nestjs/common';
import { Events, MsgIds, PATROL_STEPS, timestampFromDate, type PatrolStep } from '@engram/contracts';
import { Outbox } from '@engram/messaging';
import { failpoint } from '@engram/platform';
import { DataSource, ensureBeing, TenantTransactions, tryWithAdvisoryLock } from '@engram/store';
import { BeingVoiceRepository } from './being-voice.repository';
import { PatrolGertyGateway } from './patrol-gerty.gateway';
import { PatrolRunsRepository, type StoredPatrolRun, type StepReport } from './patrol-runs.repository';
import {
  NO_MODEL_MESSAGE,
  NO_MODEL_REASON,
  type Planned,
  type PatrolRun,
  type PatrolStepUseCase,
} from './patrol-step';
import { ConsolidationStep } from './steps/consolidation.step';
import { DecayStep } from './steps/decay.step';
import { DiaryStep } from './steps/diary.step';
import { MergeStep } from './steps/merge.step';
import { RepairStep } from './steps/repair.step';
import { RevivalStep } from './steps/revival.step';
import { ScenesToNodesStep } from './steps/scenes-to-nodes.step';
import { SessionsStep } from './steps/sessions.step';
import { SplitStep } from './steps/split.step';
import { ThinkStep } from './steps/think.step';

export interface PatrolRequest {
  readonly tenantId: string;
  readonly agent: string;
  readonly trigger: 'schedule' | 'demand';
  readonly model?: string;
  readonly apiKey?: string;
}

/** A finished run: what each step changed, and whether it finished one cut short before. */
export interface PatrolOutcome {
  readonly run: StoredPatrolRun;
  readonly resumed: boolean;
  readonly steps: ReadonlyArray<{ readonly step: PatrolStep } & StepReport>;
}

/**
 * One patrol of one being, the whole flow in one place: under the being's lock (a Postgres
 * advisory lock, so a crashed holder releases it with its connection), it starts a run — or
 * resumes the one a dead process left — and runs the repair of scene notes that did not
 * parse, ❶ scenes → nodes, ❷ sessions, ❸ decay,
 * ❹ consolidation, ❺ revival, ❻ split, ❼ merge, the diary and the think notes, each step's
 * effect committed with its mark in the run, so no step is done twice or lost. The finished
 * run is announced (mem.patrol.completed, through the outbox) in the transaction that ends it.
 * Answers null when another patrol of the being holds the lock.
 */
@Injectable()
export class RunPatrolUseCase {
  private readonly logger = new Logger(RunPatrolUseCase.name);
  private readonly steps: ReadonlyArray<PatrolStepUseCase<unknown>>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TenantTransactions,
    private readonly runs: PatrolRunsRepository,
    private readonly voices: BeingVoiceRepository,
    private readonly gateway: PatrolGertyGateway,
    private readonly outbox: Outbox,
    repair: RepairStep,
    scenes: ScenesToNodesStep,
    sessions: SessionsStep,
    decay: DecayStep,
    consolidation: ConsolidationStep,
    revival: RevivalStep,
    split: SplitStep,
    merge: MergeStep,
    diary: DiaryStep,
    think: ThinkStep,
  ) {
    this.steps = [repair, scenes, sessions, decay, consolidation, revival, split, merge, diary, think];
    const order = this.steps.map((s) => s.step).join();
    if (order !== PATROL_STEPS.join()) throw new Error(`patrol steps out of order: ${order}`);
  }

  async run(request: PatrolRequest): Promise<PatrolOutcome | null> {
    const { tenantId, agent } = request;
    const outcome = await tryWithAdvisoryLock(this.dataSource, `patrol:${tenantId}:${agent}`, () =>
      this.patrol(request),
    );
    return outcome ?? null;
  }

  private async patrol(request: PatrolRequest): Promise<PatrolOutcome> {
    const { tenantId, agent } = request;
    const { run, resumed, agentModel } = await this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, agent);
      const started = await this.runs.startOrResume(m, tenantId, agent, request.trigger);
      return { ...started, agentModel: (await this.voices.voiceOf(m, agent)).model };
    });
    const model = await this.gateway.modelFor(request, agentModel);
    if (!model) this.logger.log(NO_MODEL_MESSAGE);
    const context: PatrolRun = {
      tenantId,
      agent,
      runId: run.id,
      startedAt: run.startedAt,
      today: run.startedAt.toISOString().slice(0, 10),
      model,
    };
    for (const step of this.steps) {
      if (run.stepsDone.includes(step.step)) continue;
      const planned: Planned<unknown> = !step.needsModel
        ? await step.plan(context)
        : model
          ? await step.plan({ ...context, model })
          : { skip: NO_MODEL_REASON };
      await this.transactions.run(tenantId, async (m) => {
        const report: StepReport =
          'skip' in planned
            ? { skipped: true, reason: planned.skip, counts: {} }
            : { skipped: false, counts: await step.apply(m, context, planned.plan) };
        failpoint('patrol.in-step', step.step);
        if (!(await this.runs.markStepDone(m, run.id, step.step, report)))
          throw new Error(`patrol run ${run.id}: step ${step.step} was done by someone else`);
      });
      failpoint('patrol.after-step', step.step);
    }
    const finished = await this.transactions.run(tenantId, async (m) => {
      const done = await this.runs.finish(m, run.id);
      await this.outbox.announce(
        m,
        Events.patrolCompleted,
        tenantId,
        {
          tenantId,
          agent,
          runId: done.id,
          trigger: done.trigger,
          report: JSON.parse(JSON.stringify(done.report)),
          finishedAt: timestampFromDate(done.finishedAt!),
        },
        { msgId: MsgIds.patrolCompleted(tenantId, done.id) },
      );
      return done;
    });
    return {
      run: finished,
      resumed,
      steps: PATROL_STEPS.map((step) => ({ step, ...finished.report[step]! })),
    };
  }
}
