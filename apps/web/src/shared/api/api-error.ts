/** The contract's failure shape: `{status: "error", code, message}` (docs/decisions/api.md#the-api). */
export interface ErrorAnswer {
  status: 'error';
  code: string;
  message: string;
}

export function isErrorAnswer(value: unknown): value is ErrorAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'error' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * A call failed in a way its caller does not tolerate: HTTP 5xx, a 4xx outside the call's
 * tolerated range, or no answer at all (status 0). `answer` is the server's error body when it sent one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly answer: ErrorAnswer | null;
  /** Seconds the server asked to wait before repeating (its Retry-After), when it said. */
  retryAfter: number | null = null;

  constructor(status: number, answer: ErrorAnswer | null, message?: string) {
    super(message ?? answer?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.answer = answer;
  }
}
