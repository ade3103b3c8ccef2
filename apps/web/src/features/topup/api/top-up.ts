/** POST /v2/wallet/top-up: an order with the payments provider; the answer's url is its payment page. */
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { ApiError, isErrorAnswer } from '../../../shared/api/api-error.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import i18n from '../../../shared/i18n/i18n.ts';

export type TopUpStart = { status: 'success'; url: string } | { status: 'error'; message: string };

/** One press of 'Пополнить' is one attempt with its own Idempotency-Key. Never throws. */
export async function startTopUp(amount: string, method: 'card' | 'sbp' = 'card'): Promise<TopUpStart> {
  try {
    const answer = await startMoneyAttempt('topUp').send({
      body: { amount, currency_code: CASH_CURRENCY, ...(method === 'sbp' ? { method } : {}) },
    });
    if (isErrorAnswer(answer)) return { status: 'error', message: answer.message };
    return { status: 'success', url: answer.url };
  } catch (error) {
    if (error instanceof ApiError && error.answer) return { status: 'error', message: error.answer.message };
    const network = error instanceof ApiError && error.status === 0;
    return { status: 'error', message: i18n.t(network ? 'common.networkError' : 'common.unexpectedError') };
  }
}
