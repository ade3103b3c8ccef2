/**
 * What a money-moving call answered, in the pay modal's terms: success with the receipt, or an
 * error with a message ready to show (the server's message, or ours when no answer came).
 */
import type { AnswerOf } from '@e-wallet/contract';
import { ApiError, type ErrorAnswer, isErrorAnswer } from '../../api/api-error.ts';
import i18n from '../../i18n/i18n.ts';

/** The receipt of one operation (the contract's Receipt): kind, amount, card or counterparty, status, date. */
export type Receipt = AnswerOf<'withdrawal'>['receipt'];

export type PayOutcome =
  | { status: 'success'; message: string; receipt: Receipt }
  | { status: 'error'; message: string; code: string | null };

type MoneyAnswer = { status: 'success'; message: string; receipt: Receipt } | ErrorAnswer;

/** Awaits a money call (`attempt.send(...)`) and never throws: every failure becomes an error outcome. */
export async function payOutcomeOf(call: Promise<MoneyAnswer>): Promise<PayOutcome> {
  try {
    const answer = await call;
    if (isErrorAnswer(answer)) return { status: 'error', message: answer.message, code: answer.code };
    return { status: 'success', message: answer.message, receipt: answer.receipt };
  } catch (error) {
    if (error instanceof ApiError && error.answer)
      return { status: 'error', message: error.answer.message, code: error.answer.code };
    const network = error instanceof ApiError && error.status === 0;
    return {
      status: 'error',
      message: i18n.t(network ? 'common.networkError' : 'common.unexpectedError'),
      code: null,
    };
  }
}
