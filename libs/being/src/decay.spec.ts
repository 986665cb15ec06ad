import { clampImportance, effectiveImportance, isFaded, survivorImportance } from './decay';

describe('effectiveImportance', () => {
  it('is the importance before any session', () => {
    expect(effectiveImportance({ importance: 0.5, sessionCount: 0, reactivationCount: 0 })).toBe(0.5);
  });

  it('falls by e every 30 sessions', () => {
    expect(effectiveImportance({ importance: 0.5, sessionCount: 30, reactivationCount: 0 })).toBeCloseTo(
      0.5 / Math.E,
    );
  });

  it('counts each reactivation', () => {
    const faded = { importance: 0.5, sessionCount: 70, reactivationCount: 0 };
    expect(effectiveImportance({ ...faded, reactivationCount: 2 })).toBeCloseTo(
      3 * effectiveImportance(faded),
    );
  });
});

describe('isFaded', () => {
  it('a node of importance 0.5 fades at the 70th session, not the 69th', () => {
    const node = { importance: 0.5, reactivationCount: 0, pinned: false };
    expect(isFaded({ ...node, sessionCount: 69 })).toBe(false);
    expect(isFaded({ ...node, sessionCount: 70 })).toBe(true);
  });

  it('never for a pinned node', () => {
    expect(isFaded({ importance: 0, sessionCount: 1000, reactivationCount: 0, pinned: true })).toBe(false);
  });
});

describe('clampImportance', () => {
  it.each([
    [undefined, 0.5],
    [null, 0.5],
    [Number.NaN, 0.5],
    [-3, 0],
    [7, 1],
    [0.3, 0.3],
  ])('%p → %p', (given, expected) => expect(clampImportance(given)).toBe(expected));
});

describe('survivorImportance', () => {
  it('gains 0.05 up to 1', () => {
    expect(survivorImportance(0.5)).toBeCloseTo(0.55);
    expect(survivorImportance(0.98)).toBe(1);
  });
});
