import { caughtUpSeconds, starvedConsumers, type AckFloorSample } from './ack-floors';

const at = (atSeconds: number, consumers: AckFloorSample['consumers']): AckFloorSample => ({
  atSeconds,
  consumers,
});
const mark = (ackFloor: number, pending: number, unacknowledged = 0) => ({
  ackFloor,
  pending,
  unacknowledged,
});

describe('starvedConsumers', () => {
  it('names a consumer whose ack floor stood still for over a minute while it had work', () => {
    const samples = [0, 30, 60, 90, 120].map((s) =>
      at(s, { 'compactor-summaries': mark(3, 90_000, 2304), 'compactor-facts': mark(s * 10, 500) }),
    );
    expect(starvedConsumers(samples)).toEqual([
      'compactor-summaries: ack floor stood at 3 from 0 s to 120 s with 90000 pending and 2304 unacknowledged',
    ]);
  });

  it('lets a floor stand while there is nothing to do, or for a minute at most', () => {
    const samples = [
      at(0, { a: mark(5, 0), b: mark(1, 10) }),
      at(30, { a: mark(5, 0), b: mark(1, 10) }),
      at(60, { a: mark(5, 0), b: mark(1, 10) }),
      at(90, { a: mark(5, 0), b: mark(2, 10) }),
      at(120, { a: mark(5, 0), b: mark(2, 10) }),
    ];
    expect(starvedConsumers(samples)).toEqual([]);
  });

  it('counts a stand from when the work arrived, not from when the floor last moved', () => {
    const samples = [
      at(0, { a: mark(5, 0) }),
      at(30, { a: mark(5, 0) }),
      at(60, { a: mark(5, 4) }),
      at(90, { a: mark(5, 4) }),
      at(120, { a: mark(5, 4) }),
    ];
    expect(starvedConsumers(samples)).toEqual([]);
    expect(starvedConsumers([...samples, at(150, { a: mark(5, 4) })])).toEqual([
      'a: ack floor stood at 5 from 60 s to 150 s with 4 pending and 0 unacknowledged',
    ]);
  });
});

describe('caughtUpSeconds', () => {
  it('is when each consumer had no work left for good, counted from the end of the load', () => {
    const samples = [
      at(150, { a: mark(1, 9), b: mark(1, 9) }),
      at(180, { a: mark(9, 0), b: mark(5, 4) }),
      at(210, { a: mark(9, 2), b: mark(9, 0) }),
      at(240, { a: mark(11, 0), b: mark(9, 0) }),
      at(270, { a: mark(11, 0), b: mark(9, 0), c: mark(0, 3) }),
    ];
    expect(caughtUpSeconds(samples, 180)).toEqual({ a: 60, b: 30, c: null });
  });
});
