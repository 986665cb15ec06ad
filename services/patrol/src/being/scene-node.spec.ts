import { toSceneNode, type StoredNode } from './scene-node';

const row = (over: Partial<StoredNode> = {}): StoredNode => ({
  id: '7',
  cluster_id: '2',
  scene: {
    action: 'baked bread',
    actors: ['me', 'Mia'],
    when: ['2026-11-02', { date: '2026-11-09', action: 'bread again' }],
    setting: 'the kitchen',
    dialogue: ['smells like home'],
    sensory: ['warm crust'],
    feeling: 'cosy',
  },
  feeling: 'warm',
  importance: 0.5,
  themes: ['baking'],
  emotion: { valence: 0.8, arousal: 0.2, dominance: 0.5, safety: 1, novelty: 0, trust: 0.9 },
  status: 'active',
  fresh: false,
  pinned: false,
  session_count: 3,
  reactivation_count: 1,
  last_activated: new Date('2026-11-10T08:00:00Z'),
  ...over,
});

describe('toSceneNode', () => {
  it('answers the scene’s fields, when items as {date, action}, and its text line with the node’s feeling', () => {
    expect(toSceneNode(row())).toMatchObject({
      id: '7',
      clusterId: '2',
      action: 'baked bread',
      actors: ['me', 'Mia'],
      when: [
        { date: '2026-11-02', action: '' },
        { date: '2026-11-09', action: 'bread again' },
      ],
      setting: 'the kitchen',
      dialogue: ['smells like home'],
      sensory: ['warm crust'],
      feeling: 'warm',
      emotion: { valence: 0.8, trust: 0.9 },
      text: '2026-11-02 — the kitchen — baked bread — "smells like home" — (warm)',
    });
  });

  it('falls back to the scene’s feeling, and leaves out the emotion and activation a node lacks', () => {
    const node = toSceneNode(row({ feeling: null, emotion: null, last_activated: null }));
    expect(node.feeling).toBe('cosy');
    expect(node.text).toMatch(/\(cosy\)$/);
    expect(node.emotion).toBeUndefined();
    expect(node.lastActivated).toBeUndefined();
  });

  it('reads a node kept from migration 010: no actors, dates or dialogue', () => {
    const node = toSceneNode(
      row({ scene: { action: 'fixed the recycler', actors: [], setting: 'deck 3' }, feeling: null }),
    );
    expect(node).toMatchObject({
      actors: [],
      when: [],
      dialogue: [],
      feeling: '',
      text: 'deck 3 — fixed the recycler',
    });
  });
});
