import type { ClusterInput } from '../assembly/context-inputs';
import { mapText, nodeText, noteLine, soulText } from './scene-memory';

const cluster = (
  id: string,
  name: string,
  parentId: string,
  activeNodes: number,
  root: ClusterInput['root'] = null,
): ClusterInput => ({ id, name, root, parentId, activeNodes });

describe('mapText', () => {
  it('draws each root on a line with its sub-clusters by name, counting active nodes with their sub-clusters', () => {
    const map = mapText([
      cluster('2', 'Private', '2', 5, 'private'),
      cluster('1', 'Business', '1', 0, 'business'),
      cluster('7', 'Family', '2', 2),
      cluster('8', 'Cooking', '2', 3),
      cluster('9', 'Kids', '7', 2),
      cluster('10', 'Empty', '9', 0),
    ]);
    expect(map.text).toBe('Business (0)\nPrivate (12): Cooking (3), Family (4) [Kids (2) [Empty (0)]]');
    expect(map.ids).toEqual(['cluster:1', 'cluster:2', 'cluster:8', 'cluster:7', 'cluster:9', 'cluster:10']);
  });

  it('is the same whatever order the clusters come in', () => {
    const clusters = [
      cluster('1', 'Business', '1', 1, 'business'),
      cluster('2', 'Private', '2', 0, 'private'),
      cluster('3', 'b', '2', 1),
      cluster('4', 'B', '2', 1),
      cluster('5', 'b', '2', 2),
    ];
    const map = mapText(clusters);
    expect(map.text).toBe('Business (1)\nPrivate (4): B (1), b (1), b (2)');
    expect(mapText([...clusters].reverse())).toEqual(map);
  });

  it('leaves out what is under no root, survives a parent cycle, and is empty without clusters', () => {
    expect(
      mapText([
        cluster('1', 'Private', '1', 0, 'private'),
        cluster('5', 'Orphan', '99', 4),
        cluster('6', 'A', '7', 1),
        cluster('7', 'B', '6', 1),
      ]).text,
    ).toBe('Private (0)');
    expect(mapText([])).toEqual({ text: '', ids: [] });
  });
});

describe('soulText', () => {
  it('shows the fields that are set, in a fixed order', () => {
    expect(
      soulText({
        personality: ' Warm. ',
        voice: '',
        values: ['honesty', ''],
        backstory: 'Grew up on a boat.',
        innerWorld: '',
        examples: [],
      }),
    ).toBe('Personality: Warm.\nValues:\n- honesty\nBackstory: Grew up on a boat.');
    expect(
      soulText({ personality: '', voice: '', values: [], backstory: '', innerWorld: '', examples: [] }),
    ).toBe('');
  });
});

describe('noteLine', () => {
  it('labels TODOs and reminders and gives a due time to the minute, in UTC', () => {
    expect(noteLine({ id: '1', kind: 'note', content: ' Call Mia. ', dueAt: null })).toBe('- Call Mia.');
    expect(noteLine({ id: '2', kind: 'todo', content: 'Buy milk.', dueAt: null })).toBe('- TODO: Buy milk.');
    expect(
      noteLine({ id: '3', kind: 'reminder', content: 'Dentist.', dueAt: new Date('2026-11-24T08:30:59Z') }),
    ).toBe('- Reminder (due 2026-11-24T08:30Z): Dentist.');
    expect(noteLine({ id: '4', kind: 'reminder', content: 'Someday.', dueAt: null })).toBe(
      '- Reminder: Someday.',
    );
    expect(
      noteLine({ id: '5', kind: 'note', content: 'Pay rent.', dueAt: new Date('2026-12-01T00:00:00Z') }),
    ).toBe('- Note (due 2026-12-01T00:00Z): Pay rent.');
  });
});

describe('nodeText', () => {
  it('renders a full scene as sceneToText does, the node’s feeling first', () => {
    expect(
      nodeText({
        id: '1',
        scene: {
          action: 'Baked bread',
          actors: ['Sam', 'Mia'],
          when: [{ date: '2026-11-20', action: 'Baked bread' }, '2026-11-21'],
          setting: 'the kitchen',
          dialogue: ['Smells amazing!', 'Again tomorrow?'],
          feeling: 'cosy',
        },
        feeling: 'proud',
      }),
    ).toBe('2026-11-20 — the kitchen — Baked bread — "Smells amazing!" — (proud)');
  });

  it('renders a node kept from migration 010 (action and setting only) and falls back to the scene’s feeling', () => {
    expect(nodeText({ id: '2', scene: { action: 'Walked the dog.', actors: [] }, feeling: null })).toBe(
      'Walked the dog.',
    );
    expect(
      nodeText({
        id: '3',
        scene: { action: 'Shipped search.', setting: 'Office', feeling: 'glad' },
        feeling: null,
      }),
    ).toBe('Office — Shipped search. — (glad)');
  });
});
