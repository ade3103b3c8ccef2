/**
 * What a money-moving call answered, in the pay modal's terms: success with the receipt, or an
 * error with a message ready to show (the server's message, or ours when no answer came).
 */
import type { AnswerOf, HeldAnswer } from '@e-wallet/contract';
import { ApiError, type ErrorAnswer, isErrorAnswer } from '../../api/api-error.ts';
import i18n from '../../i18n/i18n.ts';

/** The receipt of one operation (the contract's Receipt): kind, amount, card or counterparty, status, date. */
export type Receipt = AnswerOf<'withdrawal'>['receipt'];

export type PayOutcome =
  /** A confirmed order that moves no money yet (a goal's regular deposit) has no receipt. */
  | { status: 'success'; message: string; receipt: Receipt | null }
  | { status: 'error'; message: string; code: string | null }
  /**
   * Held by the antifraud check or waiting for the trusted person (202,
   * docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
   */
  | { status: 'held'; message: string; held: HeldAnswer };

type MoneyAnswer = { status: 'success'; message: string; receipt: Receipt | null } | HeldAnswer | ErrorAnswer;

/** Awaits a money call (`attempt.send(...)`) and never throws: every failure becomes an error outcome. */
export async function payOutcomeOf(call: Promise<MoneyAnswer>): Promise<PayOutcome> {
  try {
    const answer = await call;
    if (isErrorAnswer(answer)) return { status: 'error', message: answer.message, code: answer.code };
    if ('hold_id' in answer) return { status: 'held', message: answer.reason, held: answer };
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
