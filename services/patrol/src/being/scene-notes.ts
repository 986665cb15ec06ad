import { PARSE_FAILED, parseScene, withoutParseFailed, type Scene } from '@engram/being';
import type { AddSceneRequest, Emotion } from '@engram/contracts';
import { SCENE_TASK_LIMITS, type TaskRequest } from '@engram/prompts';

/** What a scene note stores: the scene it parsed to, or the raw text marked and why it did not parse. */
export interface SceneNoteRecord {
  readonly content: string;
  readonly scene: Scene | null;
  /** As given (null when absent): the patrol clamps it. */
  readonly importance: number | null;
  readonly themes: readonly string[];
  readonly emotion: EmotionRecord | null;
  readonly parseFailed: boolean;
  readonly problems: readonly string[];
}

export type EmotionRecord = Omit<Emotion, '$typeName' | '$unknown'>;

/**
 * A scene note from the request. A scene that does not parse is kept all the same, its text
 * behind PARSE_FAILED (so the being sees it and can write it again), with the problems; the
 * patrol leaves it alone. The request passed sceneAddRules.
 */
export function sceneNoteOf(request: AddSceneRequest): SceneNoteRecord {
  const parsed = parseScene(request.scene);
  const given = {
    importance: request.importance ?? null,
    themes: request.themes,
    emotion: request.emotion ? emotionOf(request.emotion) : null,
  };
  return parsed.ok
    ? { ...given, content: request.scene, scene: parsed.scene, parseFailed: false, problems: [] }
    : {
        ...given,
        content: `${PARSE_FAILED} ${request.scene}`,
        scene: null,
        parseFailed: true,
        problems: parsed.problems,
      };
}

const emotionOf = (e: Emotion): EmotionRecord => ({
  valence: e.valence,
  arousal: e.arousal,
  dominance: e.dominance,
  safety: e.safety,
  novelty: e.novelty,
  trust: e.trust,
});

/**
 * What the language model is offered to repair a marked scene note: its text as the being wrote
 * it and why that is not a scene (the first problems, each cut to its bound) — or null when it
 * has no text, or more than the task takes (SCENE_TASK_LIMITS.repairChars): it cannot be offered.
 */
export function repairRequest(content: string): TaskRequest<'repair_scene'> | null {
  const text = withoutParseFailed(content);
  const length = text.trim().length;
  if (length === 0 || length > SCENE_TASK_LIMITS.repairChars) return null;
  const parsed = parseScene(text);
  const problems = parsed.ok ? [] : parsed.problems;
  return {
    text,
    problems: problems
      .slice(0, SCENE_TASK_LIMITS.repairProblems)
      .map((p) => p.slice(0, SCENE_TASK_LIMITS.problemChars).trim())
      .filter(Boolean),
  };
}
