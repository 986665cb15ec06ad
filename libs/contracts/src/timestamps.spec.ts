import { throughMillisecond } from './timestamps';

describe('throughMillisecond', () => {
  it('bounds a moment at the last microsecond of its millisecond, in the text Postgres reads', () => {
    expect(throughMillisecond(new Date('2026-03-01T12:00:00.250Z'))).toBe('2026-03-01T12:00:00.250999Z');
    expect(throughMillisecond(new Date('2026-03-01T12:00:00Z'))).toBe('2026-03-01T12:00:00.000999Z');
  });
});
