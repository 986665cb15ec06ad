import type { PatrolStep } from '@engram/contracts';
import type { EntityManager } from '@engram/store';

/** The language model a run may use for repairs, ❹, ❻, the diary and think notes (never the built-in one). */
export interface PatrolModel {
  readonly name: string;
  /** A tenant's own key, for this run only. */
  readonly apiKey?: string;
}

/** One patrol run of one being, as its steps see it. */
export interface PatrolRun {
  readonly tenantId: string;
  readonly agent: string;
  readonly runId: string;
  readonly startedAt: Date;
  /** The being's day (UTC) the run belongs to: the diary's day. */
  readonly today: string;
  /** Null when no language model is configured: the mechanical steps run alone. */
  readonly model: PatrolModel | null;
}

/** What a step changed, by name ("nodes": 3). */
export type StepCounts = Record<string, number>;

/** A step's plan, or why it has nothing to do (then it is recorded as skipped). */
export type Planned<P> = { readonly plan: P } | { readonly skip: string };

/** A run that has a language model: what the model steps are planned with. */
export type ModelRun = PatrolRun & { readonly model: PatrolModel };

/**
 * One step of the patrol (repair, ❶–❼, diary, think). `plan` reads and asks models, outside any
 * write transaction; `apply` writes the plan in the transaction that also records the step
 * as done in the run — so a run cut short at any moment resumes at the first step not done.
 */
interface StepUseCase<P> {
  readonly step: PatrolStep;
  apply(manager: EntityManager, run: PatrolRun, plan: P): Promise<StepCounts>;
}

/** A step that runs on any run (❶ ❷ ❸ ❺ ❼). */
export interface MechanicalStep<P> extends StepUseCase<P> {
  readonly needsModel?: false;
  plan(run: PatrolRun): Promise<Planned<P>>;
}

/** A step that needs a language model (repair, ❹ ❻ diary, think): the run skips it when it has none. */
export interface ModelStep<P> extends StepUseCase<P> {
  readonly needsModel: true;
  plan(run: ModelRun): Promise<Planned<P>>;
}

export type PatrolStepUseCase<P = unknown> = MechanicalStep<P> | ModelStep<P>;

/** The one message when a run has no language model: the founding design's own line, which operators grep for. */
export const NO_MODEL_MESSAGE =
  '[graph] BYOK key not set: skipping ❹❻ diary/think_md (mechanical processing only)';

/** Why a model step was skipped for want of a model. */
export const NO_MODEL_REASON = 'no model';
