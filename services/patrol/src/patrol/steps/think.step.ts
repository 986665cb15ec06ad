import { Injectable } from '@nestjs/common';
import { checkThinkNotes } from '@engram/prompts';
import { TenantTransactions, type EntityManager } from '@engram/store';
import { BeingVoiceRepository } from '../being-voice.repository';
import { isUnusableAnswer } from '../model-answers';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import {
  NO_MODEL_REASON,
  type Planned,
  type PatrolRun,
  type PatrolStepUseCase,
  type StepCounts,
} from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';
import { diaryInput } from './diary.step';

interface ThinkPlan {
  readonly notes: string[] | null;
}

/**
 * Think notes: 3–7 bullets the being keeps in mind for its next conversation, written after
 * the diary from the same day; they replace the set in force (the old set is kept, superseded).
 * An answer out of those bounds is refused and the set in force stays.
 */
@Injectable()
export class ThinkStep implements PatrolStepUseCase<ThinkPlan> {
  readonly step = 'think';

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
    private readonly voices: BeingVoiceRepository,
  ) {}

  async plan(run: PatrolRun): Promise<Planned<ThinkPlan>> {
    if (!run.model) return { skip: NO_MODEL_REASON };
    const { being, day, scenes, diary } = await this.transactions.run(run.tenantId, async (m) => {
      const input = await diaryInput(m, this.nodes, this.voices, run);
      const [entry]: Array<{ content: string }> = await m.query(
        `SELECT content FROM diary WHERE agent = $1 AND day = $2::date`,
        [run.agent, run.today],
      );
      return { ...input, diary: entry?.content };
    });
    try {
      const { output } = await this.gateway.complete(
        'write_think_notes',
        { being, day, scenes, ...(diary && { diary }) },
        { ...run, model: run.model },
      );
      const checked = checkThinkNotes(output);
      return { plan: { notes: checked.ok ? checked.notes : null } };
    } catch (error) {
      if (!isUnusableAnswer(error)) throw error;
      return { plan: { notes: null } };
    }
  }

  async apply(manager: EntityManager, run: PatrolRun, plan: ThinkPlan): Promise<StepCounts> {
    if (plan.notes === null) return { written: 0, refused: 1 };
    const [, superseded]: [unknown, number] = await manager.query(
      `UPDATE think_notes SET superseded_at = now() WHERE agent = $1 AND superseded_at IS NULL`,
      [run.agent],
    );
    await manager.query(
      `INSERT INTO think_notes (tenant_id, agent, content, run_id) SELECT $1, $2, note, $3 FROM unnest($4::text[]) AS note`,
      [run.tenantId, run.agent, run.runId, plan.notes],
    );
    return { written: plan.notes.length, superseded };
  }
}
