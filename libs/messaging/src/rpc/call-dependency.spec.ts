import { DependencyUnavailableError } from '../consumers/failure-kind';
import { RpcError } from './rpc-error';
import { callDependency } from './rpc.client';

describe('callDependency', () => {
  it.each(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'] as const)(
    'turns %s into a DependencyUnavailableError naming the dependency',
    async (code) => {
      const call = callDependency('gerty', () => Promise.reject(new RpcError(code, 'no answer')));
      await expect(call).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(call).rejects.toThrow('gerty: no answer');
    },
  );

  it('passes every other failure through as it is, and an answer as it is', async () => {
    const wrong = new RpcError('INVALID_ARGUMENT', 'bad input');
    await expect(callDependency('gerty', () => Promise.reject(wrong))).rejects.toBe(wrong);
    await expect(callDependency('gerty', () => Promise.resolve(42))).resolves.toBe(42);
  });
});
