import { Inject, Injectable } from '@nestjs/common';
import { withoutParseFailed, type Scene } from '@engram/being';
import { repairedScene } from '@engram/prompts';
import { TenantTransactions, type EntityManager } from '@engram/store';
import { repairRequest } from '../../being/scene-notes';
import { PATROL_CONFIG, type PatrolConfig } from '../../patrol.config';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { ModelRun, ModelStep, Planned, PatrolRun, StepCounts } from '../patrol-step';
import { SceneRepairsRepository } from '../scene-repairs.repository';

interface RepairPlan {
  readonly repaired: ReadonlyArray<{
    readonly noteId: string;
    readonly content: string;
    readonly scene: Scene;
  }>;
  /** Offered, and the answer was no scene: the note stays marked. */
  readonly refused: readonly string[];
  /** Without text, or longer than the task takes: never offered, stays marked. */
  readonly unoffered: readonly string[];
}

/**
 * The repair of scene notes that did not parse (before ❶, which then makes nodes of them):
 * each of the being's marked scene notes never offered (at most PATROL_REPAIRS_PER_RUN, oldest
 * first) is offered once to the language model (task repair_scene). A scene it answers is
 * stored on the note, whose mark goes (its content is the being's text without it); an answer
 * that is no scene leaves the note marked. Either way the note is stamped and never offered again.
 */
@Injectable()
export class RepairStep implements ModelStep<RepairPlan> {
  readonly step = 'repair';
  readonly needsModel = true;

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly notes: SceneRepairsRepository,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  async plan(run: ModelRun): Promise<Planned<RepairPlan>> {
    const broken = await this.transactions.run(run.tenantId, (m) =>
      this.notes.brokenNotes(m, run.agent, this.config.PATROL_REPAIRS_PER_RUN),
    );
    if (broken.length === 0) return { skip: 'no broken scenes' };
    const repaired: Array<RepairPlan['repaired'][number]> = [];
    const refused: string[] = [];
    const unoffered: string[] = [];
    for (const note of broken) {
      const input = repairRequest(note.content);
      if (input === null) {
        unoffered.push(note.id);
        continue;
      }
      const scene = await this.gateway.checkedAnswer('repair_scene', input, run, repairedScene);
      if (scene) repaired.push({ noteId: note.id, content: withoutParseFailed(note.content), scene });
      else refused.push(note.id);
    }
    return { plan: { repaired, refused, unoffered } };
  }

  async apply(manager: EntityManager, _run: PatrolRun, plan: RepairPlan): Promise<StepCounts> {
    let stored = 0;
    for (const r of plan.repaired)
      if (await this.notes.storeRepair(manager, r.noteId, r.content, r.scene)) stored += 1;
    await this.notes.markTried(manager, [...plan.refused, ...plan.unoffered]);
    return {
      offered: plan.repaired.length + plan.refused.length,
      repaired: stored,
      refused: plan.refused.length,
      unoffered: plan.unoffered.length,
    };
  }
}
