import { taskInputStruct } from './task-input-struct';

describe('taskInputStruct', () => {
  it('keeps JSON as it is and leaves out properties set to undefined', () => {
    expect(
      taskInputStruct({
        toolName: 'weather',
        toolArgs: { city: 'Lisbon', days: [1, 2], exact: true, unit: null },
        author: undefined,
      }),
    ).toEqual({ toolName: 'weather', toolArgs: { city: 'Lisbon', days: [1, 2], exact: true, unit: null } });
  });

  it('refuses what JSON cannot carry, naming the field', () => {
    expect(() => taskInputStruct({ preamble: { from: new Date(0) } })).toThrow(
      'taskInput.preamble.from is not JSON (Date)',
    );
    expect(() => taskInputStruct({ lines: [{ ordinal: Number.NaN }] })).toThrow(
      'taskInput.lines[0].ordinal is not JSON (NaN)',
    );
    expect(() => taskInputStruct({ toolArgs: { run: () => 1 } })).toThrow(
      'taskInput.toolArgs.run is not JSON',
    );
    expect(() => taskInputStruct({ toolArgs: [undefined] })).toThrow('taskInput.toolArgs[0] is not JSON');
  });
});
