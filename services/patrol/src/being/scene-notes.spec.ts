import { create } from '@bufbuild/protobuf';
import { AddSceneRequestSchema } from '@engram/contracts';
import { parseTaskInput, SCENE_TASK_LIMITS } from '@engram/prompts';
import { repairRequest, sceneNoteOf } from './scene-notes';

describe('sceneNoteOf', () => {
  it('keeps a parsed scene as written, with its scene, importance, themes and emotion', () => {
    const scene = '{"action":"walked","actors":["me"],"feeling":"calm"}';
    const note = sceneNoteOf(
      create(AddSceneRequestSchema, {
        agent: 'a',
        scene,
        importance: 2,
        themes: ['walks'],
        emotion: { valence: 0.5, trust: 1 },
      }),
    );
    expect(note).toEqual({
      content: scene,
      scene: { action: 'walked', actors: ['me'], when: [], dialogue: [], sensory: [], feeling: 'calm' },
      importance: 2,
      themes: ['walks'],
      emotion: { valence: 0.5, arousal: 0, dominance: 0, safety: 0, novelty: 0, trust: 1 },
      parseFailed: false,
      problems: [],
    });
  });

  it('keeps a scene that does not parse behind [PARSE_FAILED], without a scene, with its problems', () => {
    const note = sceneNoteOf(create(AddSceneRequestSchema, { agent: 'a', scene: '{"action":"x"}' }));
    expect(note).toMatchObject({
      content: '[PARSE_FAILED] {"action":"x"}',
      scene: null,
      importance: null,
      emotion: null,
      parseFailed: true,
      problems: [expect.stringMatching(/^actors: /)],
    });
  });
});

describe('repairRequest', () => {
  it('offers the note as written, without its mark, with why it is not a scene', () => {
    const request = repairRequest('[PARSE_FAILED] {"action":"baked bread"}');
    expect(request).toEqual({
      text: '{"action":"baked bread"}',
      problems: [expect.stringMatching(/^actors: /)],
    });
    expect(parseTaskInput('repair_scene', request).ok).toBe(true);
    expect(repairRequest('[PARSE_FAILED] baked bread with Mia')).toEqual({
      text: 'baked bread with Mia',
      problems: [expect.stringMatching(/^not JSON: /)],
    });
  });

  it('offers a note whose text is a scene (only its stored scene was broken) without problems', () => {
    const text = '{"action":"baked bread","actors":["me"]}';
    expect(repairRequest(`[PARSE_FAILED] ${text}`)).toEqual({ text, problems: [] });
  });

  it('keeps the problems within the task’s bounds', () => {
    const actors = Array.from({ length: 30 }, () => ' ');
    const request = repairRequest(JSON.stringify({ action: 'x', actors }))!;
    expect(request.problems).toHaveLength(SCENE_TASK_LIMITS.repairProblems);
    const long = repairRequest(`{"action": ${'['.repeat(400)}`)!;
    expect(long.problems[0]!.length).toBeLessThanOrEqual(SCENE_TASK_LIMITS.problemChars);
    expect(parseTaskInput('repair_scene', long).ok).toBe(true);
  });

  it('offers nothing for a note without text or longer than the task takes', () => {
    expect(repairRequest('[PARSE_FAILED]   ')).toBeNull();
    expect(repairRequest(`[PARSE_FAILED] ${'x'.repeat(SCENE_TASK_LIMITS.repairChars + 1)}`)).toBeNull();
  });
});
