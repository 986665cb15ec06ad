import { nextMark, SettledIds, type IdObservation } from './sweep-marks';

const at = (messages: number, ...writing: string[]): IdObservation => ({
  lastIds: { message: BigInt(messages) },
  writing,
});

describe('SettledIds', () => {
  it('settles the ids of an observation once the writers of the next one have finished', () => {
    const ids = new SettledIds();
    expect(ids.observe(at(100, '7:10'))).toBeNull();
    expect(ids.observe(at(150, '7:12', '8:13'))).toBeNull();
    // 7:12 and 8:13 finished: ids up to 100 (handed out before the second look) are final.
    expect(ids.observe(at(180, '7:15'))).toEqual({ message: 100n });
    expect(ids.observe(at(180))).toEqual({ message: 150n });
  });

  it('waits while a writer seen at the next observation still writes, and keeps what settled before', () => {
    const ids = new SettledIds();
    ids.observe(at(100));
    ids.observe(at(150, '9:14'));
    ids.observe(at(180, '9:16'));
    expect(ids.observe(at(200, '9:16', '7:20'))).toEqual({ message: 100n });
    // 9:16 (writing at the third look) still writes: ids up to 150 are not final yet.
    expect(ids.observe(at(210, '9:16'))).toEqual({ message: 100n });
    // It finished, and so did every writer since: 150 settles.
    expect(ids.observe(at(220))).toEqual({ message: 150n });
  });
});

describe('nextMark', () => {
  const row = (id: number, young = false, embedded = true) => ({ id: BigInt(id), young, embedded });

  it('moves to the settled id after the last page, and through a full page otherwise', () => {
    expect(nextMark(10n, 500n, [], 3)).toEqual({ mark: 500n, more: false });
    expect(nextMark(10n, 500n, [row(12), row(40)], 3)).toEqual({ mark: 500n, more: false });
    expect(nextMark(10n, 500n, [row(12), row(40), row(41)], 3)).toEqual({ mark: 41n, more: true });
  });

  it('stops below a row still without a vector: a young one, or one whose embedding failed', () => {
    expect(nextMark(10n, 500n, [row(12), row(40, true), row(41)], 3)).toEqual({ mark: 39n, more: false });
    expect(nextMark(10n, 500n, [row(11, false, false), row(40)], 3)).toEqual({ mark: 10n, more: false });
  });
});
