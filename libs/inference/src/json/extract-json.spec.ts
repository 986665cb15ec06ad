import { extractJson } from './extract-json';

describe('extractJson', () => {
  it('parses plain JSON', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson(' [1, 2] \n')).toEqual({ ok: true, value: [1, 2] });
  });

  it('tolerates code fences, prose around the value and thinking', () => {
    expect(extractJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('```\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Here you go:\n```json\n{"a": 1}\n```\nAnything else?')).toEqual({
      ok: true,
      value: { a: 1 },
    });
    expect(extractJson('Sure! {"a": {"b": [1]}} Hope that helps.')).toEqual({
      ok: true,
      value: { a: { b: [1] } },
    });
    expect(extractJson('<think>the user wants {json}</think>\n{"a": 1}')).toEqual({
      ok: true,
      value: { a: 1 },
    });
  });

  it('says what is wrong when nothing parses', () => {
    const empty = extractJson('  ');
    expect(empty).toEqual({ ok: false, problem: 'the answer is empty' });
    const broken = extractJson('{"a": 1,');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problem).toMatch(/^the answer is not valid JSON \(.+\)$/);
    expect(extractJson('```json\n{"a": 1}').ok).toBe(true); // fence cut off, JSON whole
  });
});
