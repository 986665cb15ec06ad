import { sceneToText } from '@engram/being';
import { SCENE_TASK_LIMITS } from '@engram/prompts';
import type { PatrolNode } from './scene-nodes.repository';

/** Who the being is, as the model steps tell the model. */
export interface BeingVoice {
  readonly name?: string;
  readonly personality?: string;
  readonly voice?: string;
}

/** A node as one line for a model, within the tasks' bound (a scene may be longer than a line). */
export function sceneLine(node: Pick<PatrolNode, 'scene' | 'feeling'>): string {
  return sceneToText(node.scene, node.feeling).slice(0, SCENE_TASK_LIMITS.sceneChars);
}
