import { isInferenceError } from '@engram/inference';
import { RpcError } from '@engram/messaging';

/** What a model's failure means to the caller, as a structured RPC error. */
export function toRpcError(error: unknown, model: string): unknown {
  if (error instanceof RpcError || !isInferenceError(error)) return error;
  const details = { model, ...(error.status !== undefined && { status: error.status }) };
  switch (error.kind) {
    case 'unavailable':
      return new RpcError('UNAVAILABLE', `model ${model} is unavailable: ${error.message}`, {
        ...details,
        retryable: true,
      });
    case 'rate_limited':
      return new RpcError('RESOURCE_EXHAUSTED', `model ${model} is rate-limited: ${error.message}`, {
        ...details,
        retryable: true,
      });
    case 'rejected':
      return new RpcError(
        'FAILED_PRECONDITION',
        `model ${model} refused the request: ${error.message}`,
        details,
      );
    case 'aborted':
      return new RpcError('DEADLINE_EXCEEDED', `the caller stopped waiting for model ${model}`, details);
    default:
      return new RpcError('INTERNAL', `model ${model} did not produce valid output: ${error.message}`, {
        ...details,
        problems: [...(error.problems ?? [])],
      });
  }
}
