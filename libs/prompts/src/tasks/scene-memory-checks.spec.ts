import {
  checkConsolidation,
  checkDiary,
  checkSplit,
  checkThinkNotes,
  repairedScene,
} from './scene-memory-checks';

describe('checkConsolidation', () => {
  const input = {
    nodes: [
      { id: '1', pinned: false },
      { id: '2', pinned: false },
      { id: '3', pinned: false },
      { id: '4', pinned: true },
      { id: '5', pinned: false },
    ],
  };
  const refused = (merges: Array<{ survivorId: string; absorbedIds: string[] }>, makeDead: string[] = []) => {
    const result = checkConsolidation(input, { merges, makeDead });
    return result.ok ? 'accepted' : result.reason;
  };

  it('accepts merges and deaths of given nodes, a pinned survivor, and nothing to do', () => {
    const plan = { merges: [{ survivorId: '4', absorbedIds: ['1', '2'] }], makeDead: ['3'] };
    expect(checkConsolidation(input, plan)).toEqual({ ok: true, plan });
    expect(checkConsolidation(input, { merges: [], makeDead: [] })).toEqual({
      ok: true,
      plan: { merges: [], makeDead: [] },
    });
  });

  it('refuses an id it was not given, wherever it is', () => {
    expect(refused([{ survivorId: '42', absorbedIds: ['1'] }])).toBe('names unknown node 42');
    expect(refused([{ survivorId: '1', absorbedIds: ['2', '42'] }])).toBe('names unknown node 42');
    expect(refused([], ['3', '42'])).toBe('names unknown node 42');
  });

  it('refuses a list that names a node twice', () => {
    expect(refused([{ survivorId: '1', absorbedIds: ['2', '2'] }])).toBe('merge into 1 names node 2 twice');
    expect(refused([], ['3', '3'])).toBe('makeDead names node 3 twice');
  });

  it('refuses a merge that absorbs nothing', () => {
    expect(refused([{ survivorId: '1', absorbedIds: [] }])).toBe('merge into 1 absorbs nothing');
  });

  it('refuses a survivor that is absorbed, in its own merge or another', () => {
    expect(refused([{ survivorId: '1', absorbedIds: ['1', '2'] }])).toBe(
      'node 1 both survives and is absorbed',
    );
    expect(
      refused([
        { survivorId: '1', absorbedIds: ['2'] },
        { survivorId: '3', absorbedIds: ['1'] },
      ]),
    ).toBe('node 1 both survives and is absorbed');
  });

  it('refuses a node in two merges', () => {
    expect(
      refused([
        { survivorId: '1', absorbedIds: ['2'] },
        { survivorId: '3', absorbedIds: ['2'] },
      ]),
    ).toBe('node 2 is in two merges');
    expect(
      refused([
        { survivorId: '1', absorbedIds: ['2'] },
        { survivorId: '1', absorbedIds: ['3'] },
      ]),
    ).toBe('node 1 is in two merges');
  });

  it('refuses a node both merged and made dead, as survivor or absorbed', () => {
    expect(refused([{ survivorId: '1', absorbedIds: ['2'] }], ['2'])).toBe(
      'node 2 is both merged and made dead',
    );
    expect(refused([{ survivorId: '1', absorbedIds: ['2'] }], ['1'])).toBe(
      'node 1 is both merged and made dead',
    );
  });

  it('refuses to absorb or make dead a pinned node', () => {
    expect(refused([{ survivorId: '1', absorbedIds: ['4'] }])).toBe('absorbs pinned node 4');
    expect(refused([], ['5', '4'])).toBe('makes pinned node 4 dead');
  });
});

describe('checkSplit', () => {
  const input = { nodes: ['1', '2', '3', '4', '5', '6'].map((id) => ({ id })) };
  const reasonFor = (groups: Array<{ name: string; nodeIds: string[] }>) => {
    const result = checkSplit(input, { groups });
    return result.ok ? 'accepted' : result.reason;
  };

  it('accepts groups of known nodes that leave two behind, with their names trimmed', () => {
    expect(
      checkSplit(input, {
        groups: [
          { name: ' Baking ', nodeIds: ['1', '2'] },
          { name: 'Work', nodeIds: ['3', '4'] },
        ],
      }),
    ).toEqual({
      ok: true,
      plan: {
        groups: [
          { name: 'Baking', nodeIds: ['1', '2'] },
          { name: 'Work', nodeIds: ['3', '4'] },
        ],
      },
    });
  });

  it('refuses no groups', () => {
    expect(reasonFor([])).toBe('no groups');
  });

  it('refuses an id it was not given', () => {
    expect(reasonFor([{ name: 'Work', nodeIds: ['1', '42'] }])).toBe('names unknown node 42');
  });

  it('refuses a node in two groups, or twice in one', () => {
    expect(
      reasonFor([
        { name: 'Baking', nodeIds: ['1', '2'] },
        { name: 'Work', nodeIds: ['2', '3'] },
      ]),
    ).toBe('node 2 is in two groups');
    expect(reasonFor([{ name: 'Work', nodeIds: ['1', '1', '2'] }])).toBe('group "Work" names node 1 twice');
  });

  it('refuses a group of fewer than 2 scenes', () => {
    expect(
      reasonFor([
        { name: 'Baking', nodeIds: ['1', '2'] },
        { name: 'Work', nodeIds: ['3'] },
      ]),
    ).toBe('group "Work" has 1 scene; at least 2');
    expect(reasonFor([{ name: 'Work', nodeIds: [] }])).toBe('group "Work" has 0 scenes; at least 2');
  });

  it('refuses a split that leaves fewer than 2 scenes in the cluster', () => {
    expect(
      reasonFor([
        { name: 'Baking', nodeIds: ['1', '2', '3'] },
        { name: 'Work', nodeIds: ['4', '5'] },
      ]),
    ).toBe('leaves 1 scene in the cluster; at least 2');
    expect(
      reasonFor([
        { name: 'Baking', nodeIds: ['1', '2', '3'] },
        { name: 'Work', nodeIds: ['4', '5', '6'] },
      ]),
    ).toBe('leaves 0 scenes in the cluster; at least 2');
  });

  it('refuses a name that is blank, or that another group has in any case', () => {
    expect(reasonFor([{ name: '   ', nodeIds: ['1', '2'] }])).toBe('group 1 has no name');
    expect(
      reasonFor([
        { name: 'Work', nodeIds: ['1', '2'] },
        { name: ' work', nodeIds: ['3', '4'] },
      ]),
    ).toBe('two groups are named "work"');
  });
});

describe('checkDiary', () => {
  it('accepts 3 to 5 lines, trimmed, without the blank ones', () => {
    expect(checkDiary('\n  We baked bread.  \r\n\nMia laughed.\nThe kitchen smelled like home.\n')).toEqual({
      ok: true,
      text: 'We baked bread.\nMia laughed.\nThe kitchen smelled like home.',
    });
    expect(checkDiary('1\n2\n3\n4\n5')).toEqual({ ok: true, text: '1\n2\n3\n4\n5' });
  });

  it('refuses fewer than 3 or more than 5 lines', () => {
    expect(checkDiary('We baked.\n\n   \nMia laughed.')).toEqual({
      ok: false,
      reason: 'has 2 lines; 3 to 5 wanted',
    });
    expect(checkDiary('')).toEqual({ ok: false, reason: 'has 0 lines; 3 to 5 wanted' });
    expect(checkDiary('1\n2\n3\n4\n5\n6')).toEqual({ ok: false, reason: 'has 6 lines; 3 to 5 wanted' });
  });

  it('refuses an entry too long to be the next day’s previous one', () => {
    const line = 'x'.repeat(700);
    expect(checkDiary([line, line, line].join('\n'))).toEqual({
      ok: false,
      reason: 'is 2102 characters; at most 2000',
    });
  });
});

describe('checkThinkNotes', () => {
  it('accepts 3 to 7 notes, trimmed, without the blank ones', () => {
    expect(
      checkThinkNotes({ notes: [' Ask Mia about the recipe. ', '  ', 'Be brief.', 'Bring up the rain.'] }),
    ).toEqual({
      ok: true,
      notes: ['Ask Mia about the recipe.', 'Be brief.', 'Bring up the rain.'],
    });
  });

  it('refuses fewer than 3 or more than 7 notes that say something', () => {
    expect(checkThinkNotes({ notes: ['Ask Mia.', ' ', 'Be brief.'] })).toEqual({
      ok: false,
      reason: 'has 2 notes; 3 to 7 wanted',
    });
    expect(checkThinkNotes({ notes: Array.from({ length: 8 }, (_, i) => `note ${i}`) })).toEqual({
      ok: false,
      reason: 'has 8 notes; 3 to 7 wanted',
    });
  });

  it('refuses a note longer than 300 characters', () => {
    expect(checkThinkNotes({ notes: ['a', 'b', 'c'.repeat(301)] })).toEqual({
      ok: false,
      reason: 'note 3 is 301 characters; at most 300',
    });
  });
});

describe('repairedScene', () => {
  const scene = { action: 'baked bread', actors: ['me'], when: [], dialogue: [], sensory: [] };

  it('leaves out the setting and feeling the note does not give', () => {
    expect(repairedScene({ ...scene, setting: '', feeling: '' })).toEqual(scene);
  });

  it('keeps those it gives', () => {
    expect(repairedScene({ ...scene, setting: 'the kitchen', feeling: 'warm' })).toEqual({
      ...scene,
      setting: 'the kitchen',
      feeling: 'warm',
    });
  });
});
