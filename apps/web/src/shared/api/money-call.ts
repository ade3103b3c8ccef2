/**
 * Money-moving calls carry an Idempotency-Key (docs/decisions.md section 4): the key is made once per
 * attempt (one press of a pay button) and kept for every retry of that attempt, so a repeat after
 * a lost answer returns the first answer and moves nothing.
 */

import { callTable } from 'virtual:call-table';
import type { CallName } from '@e-wallet/contract';
import { type Answer, type CallInput, callApi } from './client.ts';

export interface MoneyAttempt<N extends CallName> {
  readonly idempotencyKey: string;
  /** Sends (or re-sends) this attempt; every send carries the same key. */
  send: (input: CallInput<N>) => Promise<Answer<N>>;
}

export function startMoneyAttempt<N extends CallName>(name: N): MoneyAttempt<N> {
  if (!callTable[name].idempotent) throw new Error(`${name} does not move money`);
  const idempotencyKey = crypto.randomUUID();
  return {
    idempotencyKey,
    send: (input) =>
      callApi(name, { ...input, headers: { ...input.headers, 'Idempotency-Key': idempotencyKey } }),
  };
}

/** One attempt, sent once. */
export function callMoney<N extends CallName>(name: N, input: CallInput<N>): Promise<Answer<N>> {
  return startMoneyAttempt(name).send(input);
}
