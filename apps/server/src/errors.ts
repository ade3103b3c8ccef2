import type { ErrorCode, ErrorParams } from '@e-wallet/contract';

/**
 * The one error type of the server: a stable code the client can act on, parameters for the
 * user's message, and an optional internal note for the log only.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  constructor(code: ErrorCode, params: ErrorParams = {}, internal?: string) {
    super(internal ?? code);
    this.name = 'AppError';
    this.code = code;
    this.params = params;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
