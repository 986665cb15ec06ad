import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';
import type { Planned, PatrolRun, MechanicalStep, StepCounts } from '../patrol-step';

/** ❷ A session passed: every active node's session_count + 1 (dying and dead nodes no longer fade). */
@Injectable()
export class SessionsStep implements MechanicalStep<null> {
  readonly step = 'sessions';

  async plan(): Promise<Planned<null>> {
    return { plan: null };
  }

  async apply(manager: EntityManager, run: PatrolRun): Promise<StepCounts> {
    const [, count]: [unknown, number] = await manager.query(
      `UPDATE memory_nodes SET session_count = session_count + 1 WHERE agent = $1 AND status = 'active'`,
      [run.agent],
    );
    return { nodes: count };
  }
}
