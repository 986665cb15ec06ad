import { sceneToText } from '@engram/being';
import { RpcError } from '@engram/messaging';
import { SCENE_TASK_LIMITS, TaskAnswerShapeError } from '@engram/prompts';
import type { NodeRow } from './scene-nodes.repository';

/**
 * A model's answer that cannot be used: not in the task's shape (Gerty says INTERNAL, or the
 * client's check fails). The step refuses it whole and goes on; any other failure (Gerty
 * down, too slow) fails the run, which the next run resumes.
 */
export function isUnusableAnswer(error: unknown): boolean {
  return error instanceof TaskAnswerShapeError || (error instanceof RpcError && error.code === 'INTERNAL');
}

/** Who the being is, as the model steps tell the model. */
export interface BeingVoice {
  readonly name?: string;
  readonly personality?: string;
  readonly voice?: string;
}

/** A node as one line for a model, within the tasks' bound (a scene may be longer than a line). */
export function sceneLine(node: Pick<NodeRow, 'scene' | 'feeling'>): string {
  return sceneToText(node.scene, node.feeling).slice(0, SCENE_TASK_LIMITS.sceneChars);
}
