import { Injectable } from '@nestjs/common';
import { checkThinkNotes } from '@engram/prompts';
import { TenantTransactions, type DiaryRow, type EntityManager } from '@engram/store';
import { BeingVoiceRepository } from '../being-voice.repository';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { ModelRun, ModelStep, Planned, PatrolRun, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';
import { diaryInput, NO_SCENE_NOTES } from './diary.step';

interface ThinkPlan {
  readonly notes: string[] | null;
}

/**
 * Think notes: 3–7 bullets the being keeps in mind for its next conversation, written after
 * the diary from the same day (so, like it, only when this run made nodes of scene notes); they replace the set in force (the old set is kept, superseded).
 * An answer out of those bounds is refused and the set in force stays.
 */
@Injectable()
export class ThinkStep implements ModelStep<ThinkPlan> {
  readonly step = 'think';
  readonly needsModel = true;

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
    private readonly voices: BeingVoiceRepository,
  ) {}

  async plan(run: ModelRun): Promise<Planned<ThinkPlan>> {
    const read = await this.transactions.run(run.tenantId, async (m) => {
      if (!(await this.nodes.madeNodesIn(m, run.runId))) return null;
      const input = await diaryInput(m, this.nodes, this.voices, run);
      const [entry]: Array<Pick<DiaryRow, 'content'>> = await m.query(
        `SELECT content FROM diary WHERE agent = $1 AND day = $2::date`,
        [run.agent, run.today],
      );
      return { ...input, diary: entry?.content };
    });
    if (!read) return { skip: NO_SCENE_NOTES };
    const { being, day, scenes, diary } = read;
    const notes = await this.gateway.checkedAnswer(
      'write_think_notes',
      { being, day, scenes, ...(diary && { diary }) },
      run,
      (output) => {
        const answer = checkThinkNotes(output);
        return answer.ok ? answer.notes : null;
      },
    );
    return { plan: { notes } };
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
