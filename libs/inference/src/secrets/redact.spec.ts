import { InferenceError } from '../errors/inference-error';
import { redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('removes the given secrets and anything shaped like a credential', () => {
    expect(redactSecrets('key tenant-key-123 was wrong', ['tenant-key-123'])).toBe(
      'key [redacted] was wrong',
    );
    expect(redactSecrets('got Authorization: Bearer abc.def-ghi')).toBe(
      'got Authorization: Bearer [redacted]',
    );
    expect(redactSecrets('Incorrect API key provided: sk-proj-AAAAbbbbCCCC1234')).toBe(
      'Incorrect API key provided: [redacted]',
    );
    expect(redactSecrets('nothing secret', [undefined, ''])).toBe('nothing secret');
  });
});

describe('InferenceError', () => {
  it('is transient for unavailable and rate limited only, and serialises without surprises', () => {
    expect(new InferenceError('unavailable', 'down').transient).toBe(true);
    expect(new InferenceError('rate_limited', 'slow down', { status: 429 }).transient).toBe(true);
    expect(new InferenceError('rejected', 'no', { status: 401 }).transient).toBe(false);
    const error = new InferenceError('invalid_output', 'bad', { problems: ['/a: must be integer'] });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'InferenceError',
      kind: 'invalid_output',
      message: 'bad',
      problems: ['/a: must be integer'],
    });
  });
});
