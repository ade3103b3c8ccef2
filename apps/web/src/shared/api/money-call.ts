/**
 * Money-moving calls carry an Idempotency-Key (docs/decisions/api.md#the-api): the key is made once per
 * attempt (one press of a pay button) and kept for every retry of that attempt, so a repeat after
 * a lost answer returns the first answer and moves nothing.
 *
 * An attempt that gets no answer (the network, an instance dying) or 503 (the database failing over:
 * SERVICE_UNAVAILABLE, Retry-After) is sent again by itself, with the same key, for about half a
 * minute (a failover takes seconds, docs/operations.md) before the screen hears of the failure.
 */

import { callTable } from 'virtual:call-table';
import type { CallName } from '@e-wallet/contract';
import { ApiError } from './api-error.ts';
import { type Answer, type CallInput, callApi } from './client.ts';

export interface MoneyAttempt<N extends CallName> {
  readonly idempotencyKey: string;
  /** Sends (or re-sends) this attempt; every send carries the same key. */
  send: (input: CallInput<N>) => Promise<Answer<N>>;
}

/** Pauses before each automatic repeat (the server's Retry-After when it asks for longer, up to 10 s). */
export const MONEY_RETRY_DELAYS_MS = [1000, 2000, 3000, 5000, 8000, 10_000];

function retryable(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 0 || error.status === 503);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export function startMoneyAttempt<N extends CallName>(name: N): MoneyAttempt<N> {
  if (!callTable[name].idempotent) throw new Error(`${name} does not move money`);
  const idempotencyKey = crypto.randomUUID();
  const once = (input: CallInput<N>) =>
    callApi(name, { ...input, headers: { ...input.headers, 'Idempotency-Key': idempotencyKey } });
  return {
    idempotencyKey,
    async send(input) {
      for (let repeat = 0; ; repeat++) {
        try {
          return await once(input);
        } catch (error) {
          const delay = MONEY_RETRY_DELAYS_MS[repeat];
          if (!retryable(error) || delay === undefined || input.signal?.aborted) throw error;
          await pause(Math.min(10_000, Math.max(delay, (error.retryAfter ?? 0) * 1000)), input.signal);
        }
      }
    },
  };
}

/** One attempt (sent again by itself while the service is briefly unavailable). */
export function callMoney<N extends CallName>(name: N, input: CallInput<N>): Promise<Answer<N>> {
  return startMoneyAttempt(name).send(input);
}
