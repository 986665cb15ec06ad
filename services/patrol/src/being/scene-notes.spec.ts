import { create } from '@bufbuild/protobuf';
import { AddSceneRequestSchema } from '@engram/contracts';
import { sceneNoteOf } from './scene-notes';

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
