import { TimeoutError } from '@nats-io/transport-node';
import { DependencyUnavailableError, isDependencyFailure } from './failure-kind';

describe('isDependencyFailure', () => {
  it('recognises an unreachable Postgres or network', () => {
    expect(
      isDependencyFailure(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(
      isDependencyFailure(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isDependencyFailure(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDependencyFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyFailure(new DependencyUnavailableError('gateway down'))).toBe(true);
    expect(
      isDependencyFailure(
        new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
      ),
    ).toBe(true);
    expect(isDependencyFailure(new TimeoutError())).toBe(true);
    expect(isDependencyFailure(new Error('Driver not Connected'))).toBe(true);
  });

  it('treats everything else as a failure of the message itself', () => {
    expect(isDependencyFailure(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDependencyFailure(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(false);
    expect(isDependencyFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    );
    expect(isDependencyFailure('a string')).toBe(false);
  });
});
