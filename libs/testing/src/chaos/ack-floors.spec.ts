import { caughtUpSeconds, starvedConsumers, type AckFloorSample } from './ack-floors';

const at = (atSeconds: number, consumers: AckFloorSample['consumers']): AckFloorSample => ({
  atSeconds,
  consumers,
});
const mark = (acknowledged: number, pending: number, unacknowledged = 0, ackFloor = acknowledged) => ({
  ackFloor,
  acknowledged,
  pending,
  unacknowledged,
});

describe('starvedConsumers', () => {
  it('names a consumer that acknowledged nothing for over a minute while it had work', () => {
    const samples = [0, 30, 60, 90, 120].map((s) =>
      at(s, { 'compactor-summaries': mark(3, 90_000, 2304), 'compactor-facts': mark(s * 10, 500) }),
    );
    expect(starvedConsumers(samples)).toEqual([
      'compactor-summaries: acknowledged nothing from 0 s to 120 s with 90000 pending and 2304 unacknowledged (ack floor 3)',
    ]);
  });

  it('lets a consumer rest while there is nothing to do, or for a minute at most', () => {
    const samples = [
      at(0, { a: mark(5, 0), b: mark(1, 10) }),
      at(30, { a: mark(5, 0), b: mark(1, 10) }),
      at(60, { a: mark(5, 0), b: mark(1, 10) }),
      at(90, { a: mark(5, 0), b: mark(2, 10) }),
      at(120, { a: mark(5, 0), b: mark(2, 10) }),
    ];
    expect(starvedConsumers(samples)).toEqual([]);
  });

  it('counts a stand from when the work arrived, not from the last acknowledgement', () => {
    const samples = [
      at(0, { a: mark(5, 0) }),
      at(30, { a: mark(5, 0) }),
      at(60, { a: mark(5, 4) }),
      at(90, { a: mark(5, 4) }),
      at(120, { a: mark(5, 4) }),
    ];
    expect(starvedConsumers(samples)).toEqual([]);
    expect(starvedConsumers([...samples, at(150, { a: mark(5, 4) })])).toEqual([
      'a: acknowledged nothing from 60 s to 150 s with 4 pending and 0 unacknowledged (ack floor 5)',
    ]);
  });

  it('takes no stale ack floor for starvation while the consumer keeps acknowledging', () => {
    // After a NATS restart the floor came back older than it was and stood until the backlog was gone.
    const samples = [0, 30, 60, 90, 120, 150].map((s) =>
      at(s, { 'compactor-facts': mark(1000 + s * 100, 50_000, 190, 1302) }),
    );
    expect(starvedConsumers(samples)).toEqual([]);
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
