import { RpcErrorCodes, type RpcErrorCode } from '@engram/contracts';

/**
 * A structured RPC failure: {code, message, details}. Thrown by RPC handlers and
 * answered to the caller as is; thrown again on the caller's side by RpcClient.
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return RpcErrorCodes[this.code];
  }

  static invalidArgument(message: string, details?: Record<string, unknown>): RpcError {
    return new RpcError('INVALID_ARGUMENT', message, details);
  }

  static notFound(message: string, details?: Record<string, unknown>): RpcError {
    return new RpcError('NOT_FOUND', message, details);
  }

  static failedPrecondition(message: string, details?: Record<string, unknown>): RpcError {
    return new RpcError('FAILED_PRECONDITION', message, details);
  }
}

export function isRpcErrorCode(code: string): code is RpcErrorCode {
  return code in RpcErrorCodes;
}
