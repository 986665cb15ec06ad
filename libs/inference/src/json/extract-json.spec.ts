import { extractJson, withoutThinking } from './extract-json';

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

describe('withoutThinking', () => {
  it('drops what a model thought aloud, however its tags came', () => {
    expect(
      withoutThinking('<think>Two topics: the deploy, then lunch.</think>\nSam deployed, then ate.'),
    ).toBe('Sam deployed, then ate.');
    expect(withoutThinking('<thinking>a</thinking>One.<think>b</think> Two.')).toBe('One. Two.');
    // The chat template opened the thought in the prompt: the answer starts inside it.
    expect(withoutThinking('Plan the summary first.</think>\n\nThe summary.')).toBe('The summary.');
    // The token budget ran out mid-thought: nothing was answered.
    expect(withoutThinking('<think>Still planning the')).toBe('');
    expect(withoutThinking('  A plain answer.  ')).toBe('A plain answer.');
  });
});
