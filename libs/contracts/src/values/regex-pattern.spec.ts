import { checkPattern } from './regex-pattern';

describe('checkPattern', () => {
  it('accepts ordinary patterns', () => {
    expect(checkPattern('Bailey|Oliver')).toEqual({ ok: true });
    expect(checkPattern('^deploy(ed|ment)? to staging$')).toEqual({ ok: true });
  });

  it('refuses catastrophic, back-referencing, empty and oversized patterns with a reason', () => {
    for (const p of ['(a+)+$', '(x*)*y', '(a)\\1', '', 'a'.repeat(501)]) {
      const check = checkPattern(p);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.reason.length).toBeGreaterThan(5);
    }
  });
});
