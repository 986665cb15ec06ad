import { Injectable } from '@nestjs/common';
import { checkDiary, SCENE_TASK_LIMITS, type TaskRequest } from '@engram/prompts';
import { TenantTransactions, type DiaryRow, type EntityManager } from '@engram/store';
import { BeingVoiceRepository } from '../being-voice.repository';
import { sceneLine } from '../model-answers';
import { PatrolGertyGateway } from '../patrol-gerty.gateway';
import type { ModelRun, ModelStep, Planned, PatrolRun, StepCounts } from '../patrol-step';
import { SceneNodesRepository } from '../scene-nodes.repository';

interface DiaryPlan {
  /** Null when the model's answer was refused. */
  readonly entry: { readonly text: string; readonly model: string } | null;
}

/** Why the diary and think notes wait: as designed, they are written only after scene notes came in. */
export const NO_SCENE_NOTES = 'no scene notes this run';

/**
 * The diary: 3–5 lines in the being's voice about its day (the scenes made or brought back
 * today, yesterday's entry for continuity), upserted as today's entry — a second patrol on
 * one day rewrites it — when this run made nodes of scene notes. An answer of another length
 * is refused and the entry left as it was.
 */
@Injectable()
export class DiaryStep implements ModelStep<DiaryPlan> {
  readonly step = 'diary';
  readonly needsModel = true;

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly gateway: PatrolGertyGateway,
    private readonly nodes: SceneNodesRepository,
    private readonly voices: BeingVoiceRepository,
  ) {}

  async plan(run: ModelRun): Promise<Planned<DiaryPlan>> {
    const input = await this.transactions.run(run.tenantId, async (m) =>
      (await this.nodes.madeNodesIn(m, run.runId)) ? diaryInput(m, this.nodes, this.voices, run) : null,
    );
    if (!input) return { skip: NO_SCENE_NOTES };
    const entry = await this.gateway.checkedAnswer('write_diary', input, run, (output, model) => {
      const answer = checkDiary(output);
      return answer.ok ? { text: answer.text, model } : null;
    });
    return { plan: { entry } };
  }

  async apply(manager: EntityManager, run: PatrolRun, plan: DiaryPlan): Promise<StepCounts> {
    if (plan.entry === null) return { written: 0, refused: 1 };
    await manager.query(
      `INSERT INTO diary (tenant_id, agent, day, content, model) VALUES ($1, $2, $3::date, $4, $5)
       ON CONFLICT (tenant_id, agent, day) DO UPDATE SET content = excluded.content, model = excluded.model, updated_at = now()`,
      [run.tenantId, run.agent, run.today, plan.entry.text, plan.entry.model],
    );
    return { written: 1, lines: plan.entry.text.split('\n').length };
  }
}

/** What the day's diary (and the think notes after it) are written from. */
export async function diaryInput(
  manager: EntityManager,
  nodes: SceneNodesRepository,
  voices: BeingVoiceRepository,
  run: PatrolRun,
): Promise<TaskRequest<'write_diary'>> {
  const { name, personality, voice } = await voices.voiceOf(manager, run.agent);
  const today = await nodes.nodes(
    manager,
    run.agent,
    `status <> 'dead' AND (created_at::date = $2::date OR last_activated::date = $2::date)`,
    [run.today],
  );
  const [previous]: Array<Pick<DiaryRow, 'content'>> = await manager.query(
    `SELECT content FROM diary WHERE agent = $1 AND day = $2::date - 1`,
    [run.agent, run.today],
  );
  return {
    being: { ...(name && { name }), ...(personality && { personality }), ...(voice && { voice }) },
    day: run.today,
    scenes: today.slice(-SCENE_TASK_LIMITS.diaryScenes).map((n) => sceneLine(n)),
    ...(previous && { previous: previous.content.slice(0, SCENE_TASK_LIMITS.diaryChars) }),
  };
}
