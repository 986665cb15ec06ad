import { NotTheFormat, parseJson, RecordRefused, timeOf } from './foreign-json';

describe('reading foreign JSON', () => {
  it('reads times as ISO 8601 (no zone is UTC) or epoch seconds and milliseconds', () => {
    const at = (value: unknown) => timeOf({ at: value }, 'at')?.toISOString();
    expect(at('2025-05-10T08:00:05.120000+00:00')).toBe('2025-05-10T08:00:05.120Z');
    expect(at('2025-01-02T10:00:00')).toBe('2025-01-02T10:00:00.000Z');
    expect(at('2024-09-14')).toBe('2024-09-14T00:00:00.000Z');
    expect(at(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(at(1_700_000_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(at(null)).toBeUndefined();
    expect(() => at('soon')).toThrow(RecordRefused);
  });

  it('unwraps a file that is JSON inside a JSON string, and says when a file is not JSON', () => {
    expect(parseJson(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({ a: 1 });
    expect(() => parseJson('{oops')).toThrow(NotTheFormat);
  });
});
