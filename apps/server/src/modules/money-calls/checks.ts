/**
 * The answers before the PIN (transfer, withdrawal and QR payment checks): what the ledger's payment
 * door would refuse now, asked of the same statement without moving money (`paymentProblems`), as
 * the contract's errors, with the person's limits. A race can still refuse the payment after the PIN.
 */
import { type AnswerOf, errorMessage, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { AppError } from '../../errors.ts';
import { type PaymentCheck, paymentProblems } from '../../ledger/index.ts';
import type { LevelName } from '../../policy/levels.ts';
import { limitsOf } from '../auth/index.ts';
import { refusalError } from './refusals.ts';

export type CheckAnswer = AnswerOf<'transferCheck'>;

/** The payment's problems as the contract's errors. */
export async function paymentProblemsOf(
  ctx: AppContext,
  check: Omit<PaymentCheck, 'at' | 'rules'>,
): Promise<AppError[]> {
  const refusals = await paymentProblems(ctx.db, {
    ...check,
    at: ctx.clock.now(),
    rules: ctx.config.levelRulesJson,
  });
  return refusals.map(refusalError);
}

export async function checkAnswer(
  ctx: AppContext,
  userId: string,
  problems: AppError[],
  language: Language,
): Promise<CheckAnswer> {
  const { rows } = await ctx.db.query<{ identification_level: LevelName }>(
    'SELECT identification_level FROM users WHERE id = $1',
    [userId],
  );
  return {
    ok: problems.length === 0,
    problems: problems.map((problem) => ({
      code: problem.code,
      message: errorMessage(problem.code, language, problem.params),
    })),
    limits: await limitsOf(ctx.db, ctx, userId, rows[0]?.identification_level ?? 'anonymous'),
  };
}
