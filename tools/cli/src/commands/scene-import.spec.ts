import { RpcError } from '@engram/messaging';
import { importSceneLines, sceneLine, SceneImportStopped, type SceneRequest } from './scene-import';

const SCENE = { action: 'Baked bread', actors: ['Sam', 'Mia'], when: ['2026-11-20'] };

describe('sceneLine', () => {
  it('sends a scene object line as it was written', () => {
    const text = JSON.stringify(SCENE);
    expect(sceneLine('ada', `  ${text}  `)).toEqual({
      kind: 'request',
      request: { agent: 'ada', scene: text },
    });
  });

  it('takes scene, importance, themes and emotion from a wrapper, the scene as an object or as JSON text', () => {
    expect(
      sceneLine(
        'ada',
        JSON.stringify({
          scene: SCENE,
          importance: 0.8,
          themes: ['family'],
          emotion: { valence: 0.6, trust: 0.9 },
        }),
      ),
    ).toEqual({
      kind: 'request',
      request: {
        agent: 'ada',
        scene: JSON.stringify(SCENE),
        importance: 0.8,
        themes: ['family'],
        emotion: { valence: 0.6, trust: 0.9 },
      },
    });
    expect(sceneLine('ada', JSON.stringify({ scene: '{"action": "x"}' }))).toEqual({
      kind: 'request',
      request: { agent: 'ada', scene: '{"action": "x"}' },
    });
  });

  it('sends what is not JSON, or not a scene, as written: the service keeps it marked [PARSE_FAILED]', () => {
    expect(sceneLine('ada', 'we baked bread')).toEqual({
      kind: 'request',
      request: { agent: 'ada', scene: 'we baked bread' },
    });
    expect(sceneLine('ada', '[1, 2]')).toEqual({
      kind: 'request',
      request: { agent: 'ada', scene: '[1, 2]' },
    });
    expect(sceneLine('ada', '{"actors": []}')).toEqual({
      kind: 'request',
      request: { agent: 'ada', scene: '{"actors": []}' },
    });
  });

  it('skips blank lines', () => {
    expect(sceneLine('ada', '')).toEqual({ kind: 'blank' });
    expect(sceneLine('ada', ' \t\r')).toEqual({ kind: 'blank' });
  });

  it('refuses a wrapper the request cannot carry, naming every problem', () => {
    expect(
      sceneLine(
        'ada',
        JSON.stringify({
          scene: 42,
          importance: 'high',
          themes: 'family',
          emotion: { valance: 0.2, trust: 'lots' },
          mood: 'happy',
        }),
      ),
    ).toEqual({
      kind: 'refused',
      problems: [
        'unknown field(s) mood: only scene, importance, themes, emotion',
        'scene must be a scene object or its JSON text',
        'importance must be a number',
        'themes must be a list of strings',
        'emotion.valance is not one of valence, arousal, dominance, safety, novelty, trust',
        'emotion.trust must be a number',
      ],
    });
    expect(sceneLine('ada', JSON.stringify({ scene: SCENE, emotion: [1] }))).toEqual({
      kind: 'refused',
      problems: ['emotion must be an object of valence, arousal, dominance, safety, novelty, trust'],
    });
  });
});

describe('importSceneLines', () => {
  const lines = [
    JSON.stringify(SCENE),
    '',
    'not json at all',
    JSON.stringify({ scene: SCENE, importance: 'high' }),
    JSON.stringify({ scene: { action: '', actors: ['Sam'] } }),
    JSON.stringify({ scene: SCENE, themes: ['x'.repeat(300)] }),
  ];

  /** Stands in for the service: parse failures for non-JSON, refusals for long themes. */
  async function send(request: SceneRequest) {
    if ((request.themes ?? []).some((t) => t.length > 200)) {
      throw new RpcError('INVALID_ARGUMENT', 'bad request', {
        fieldViolations: [{ field: 'themes', description: 'themes must be 1-200 characters each' }],
      });
    }
    if (request.scene === 'not json at all')
      return { parseFailed: true, problems: ['not JSON: Unexpected token'] };
    if (request.scene!.includes('"action":""')) return { parseFailed: true, problems: ['action: too short'] };
    return { parseFailed: false, problems: [] };
  }

  it('counts what was stored, kept as parse-failed and refused, by line number', async () => {
    const sent: SceneRequest[] = [];
    const result = await importSceneLines('ada', lines, (request) => {
      sent.push(request);
      return send(request);
    });
    expect(result).toEqual({
      stored: 1,
      parseFailed: [
        { line: 3, problems: ['not JSON: Unexpected token'] },
        { line: 5, problems: ['action: too short'] },
      ],
      refused: [
        { line: 4, problems: ['importance must be a number'] },
        { line: 6, problems: ['themes: themes must be 1-200 characters each'] },
      ],
    });
    // The blank line and the line refused here were never sent.
    expect(sent).toHaveLength(4);
    expect(sent.every((r) => r.agent === 'ada')).toBe(true);
  });

  it('stops at the line the service did not answer, with what was done before it', async () => {
    let calls = 0;
    const error = await importSceneLines('ada', lines, async (request) => {
      if (++calls === 2)
        throw new RpcError('UNAVAILABLE', 'no service answers mem.rpc.being.scenes.add.acme');
      return send(request);
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SceneImportStopped);
    expect(error).toMatchObject({
      line: 3,
      sofar: { stored: 1, parseFailed: [], refused: [] },
      message:
        'stopped at line 3: no service answers mem.rpc.being.scenes.add.acme (the lines before it were sent)',
    });
  });

  it('reads lines from an async source, as from a file', async () => {
    async function* file() {
      yield JSON.stringify(SCENE);
      yield JSON.stringify(SCENE);
    }
    expect(await importSceneLines('ada', file(), send)).toEqual({ stored: 2, parseFailed: [], refused: [] });
  });
});
