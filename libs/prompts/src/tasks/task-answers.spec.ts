import { parseTaskAnswer, TaskAnswerShapeError } from './task-answers';

describe('parseTaskAnswer', () => {
  it('reads summarize and describe_tool_call from the text, with the model that wrote it', () => {
    expect(parseTaskAnswer('summarize', { text: 'Ada moved to Lisbon.', model: 'm1' })).toEqual({
      output: 'Ada moved to Lisbon.',
      model: 'm1',
    });
    const described = parseTaskAnswer('describe_tool_call', {
      text: 'Looked up the weather.',
      json: { ignored: true },
      model: 'm2',
    });
    expect(described).toEqual({ output: 'Looked up the weather.', model: 'm2' });
  });

  it('reads extract_facts from the JSON, with the schema’s defaults filled in', () => {
    const answer = parseTaskAnswer('extract_facts', {
      text: '',
      json: { facts: [{ content: 'Ada lives in Lisbon.', category: 'fact', importance: 6 }] },
      model: 'engram-local-rules-v1',
    });
    expect(answer.output.facts).toEqual([
      { content: 'Ada lives in Lisbon.', category: 'fact', importance: 6, sourceMessageIds: [] },
    ]);
    expect(answer.model).toBe('engram-local-rules-v1');
  });

  it('reads answer_from_memory from the JSON', () => {
    const answer = parseTaskAnswer('answer_from_memory', {
      text: 'Bailey [message:1].',
      json: { answer: ' Bailey [message:1]. ', citedIds: ['message:1'] },
      model: 'openai:x',
    });
    expect(answer.output).toEqual({ answer: 'Bailey [message:1].', citedIds: ['message:1'] });
  });

  it('reads the scene-memory tasks: consolidation with its lists defaulted, the split, the diary text, the notes', () => {
    const model = 'openai:x';
    expect(parseTaskAnswer('consolidate_scenes', { text: '', json: {}, model }).output).toEqual({
      merges: [],
      makeDead: [],
    });
    const groups = [{ name: 'Baking', nodeIds: ['1', '2'] }];
    expect(parseTaskAnswer('split_cluster', { text: '', json: { groups }, model }).output).toEqual({
      groups,
    });
    expect(
      parseTaskAnswer('write_diary', { text: 'We baked.\nIt rained.\nMia laughed.', model }).output,
    ).toBe('We baked.\nIt rained.\nMia laughed.');
    const notes = ['Ask Mia.', 'Be brief.', 'Mention the rain.'];
    expect(parseTaskAnswer('write_think_notes', { text: '', json: { notes }, model }).output).toEqual({
      notes,
    });
  });

  it('refuses scene-memory answers beyond their bounds', () => {
    const model = 'openai:x';
    const shape = (task: 'consolidate_scenes' | 'split_cluster' | 'write_think_notes', json: unknown) => () =>
      parseTaskAnswer(task, { text: '', json, model });
    expect(shape('consolidate_scenes', { merges: [{ survivorId: '1', absorbedIds: [] }] })).toThrow(
      /consolidate_scenes in another shape \(merges\.0\.absorbedIds: /,
    );
    expect(shape('split_cluster', { groups: [{ name: 'x'.repeat(61), nodeIds: ['1', '2'] }] })).toThrow(
      /split_cluster in another shape \(groups\.0\.name: /,
    );
    expect(shape('split_cluster', { groups: [{ name: '', nodeIds: ['1', '2'] }] })).toThrow(
      TaskAnswerShapeError,
    );
    expect(shape('write_think_notes', { notes: ['a', 'b'] })).toThrow(
      /write_think_notes in another shape \(notes: /,
    );
    expect(shape('write_think_notes', { notes: Array.from({ length: 8 }, () => 'n') })).toThrow(
      TaskAnswerShapeError,
    );
    expect(shape('write_think_notes', { notes: ['a', 'b', 'c'.repeat(301)] })).toThrow(/\(notes\.2: /);
  });

  it('reads repair_scene as a scene, its lists defaulted, and refuses one without actors', () => {
    const model = 'openai:x';
    const json = { action: ' baked bread ', actors: ['me'], when: ['2026-11-02'], setting: '', feeling: '' };
    expect(parseTaskAnswer('repair_scene', { text: '', json, model }).output).toEqual({
      action: 'baked bread',
      actors: ['me'],
      when: ['2026-11-02'],
      setting: '',
      dialogue: [],
      sensory: [],
      feeling: '',
    });
    expect(() =>
      parseTaskAnswer('repair_scene', { text: '', json: { action: 'baked bread', actors: [] }, model }),
    ).toThrow(/repair_scene in another shape \(actors: /);
  });

  it('refuses an answer in another shape, naming the model, the task and the problem', () => {
    const noJson = () => parseTaskAnswer('answer_from_memory', { text: 'cats', model: 'openai:x' });
    expect(noJson).toThrow(TaskAnswerShapeError);
    expect(noJson).toThrow('model openai:x answered answer_from_memory without JSON');
    const badCategory = () =>
      parseTaskAnswer('extract_facts', {
        text: '',
        json: { facts: [{ content: 'x', category: 'gossip', importance: 3 }] },
        model: 'm',
      });
    expect(badCategory).toThrow(/extract_facts in another shape \(facts\.0\.category: /);
  });
});
